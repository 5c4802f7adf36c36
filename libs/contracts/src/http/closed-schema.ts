/**
 * Names of the view classes whose OpenAPI schema admits no property it does not list
 * (`additionalProperties: false`). @nestjs/swagger has no option for it on a class, so the gateway
 * marks these schemas when it builds the document; the end-to-end suites then fail on any field a
 * view answers without declaring it (an entity column leaking, a renamed field).
 */
const closedSchemas = new Set<string>();

/** Marks a view class as closed: its answers carry exactly the declared properties. */
export function ClosedSchema(): ClassDecorator {
  return (target) => {
    closedSchemas.add(target.name);
  };
}

export function closedSchemaNames(): ReadonlySet<string> {
  return closedSchemas;
}
