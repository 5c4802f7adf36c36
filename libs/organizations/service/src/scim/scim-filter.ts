import { ScimInvalidFilterError } from '@hub/organizations-contract';

/** How one filterable attribute reads in SQL (its column or expression) and compares. */
export interface ScimAttribute {
  /** An SQL expression of the row; `:v` stands for the value where `sql` is a template (multi-valued attributes). */
  sql: string;
  /** `unkept`: the hub does not keep it (e-mail types): any comparison holds where `sql` does (decision 0420: a type names the primary address). */
  type: 'string' | 'boolean' | 'dateTime' | 'unkept';
  /** Strings compare without regard to case unless set (RFC 7643 caseExact). */
  caseExact?: boolean;
  /** Multi-valued: `sql` is `EXISTS (... WHERE :cond)`, `element` names the element inside it. */
  element?: string;
  /** Sub-attributes inside a value path (`emails[type eq "work"]`), each an expression of the element. */
  sub?: Readonly<Record<string, ScimAttribute>>;
}

export type ScimAttributes = Readonly<Record<string, ScimAttribute>>;

type Literal = string | number | boolean | null;
type Op = 'eq' | 'ne' | 'co' | 'sw' | 'ew' | 'gt' | 'ge' | 'lt' | 'le';
type Node =
  | { kind: 'and' | 'or'; left: Node; right: Node }
  | { kind: 'not'; inner: Node }
  | { kind: 'compare'; attr: string; op: Op; value: Literal }
  | { kind: 'present'; attr: string }
  | { kind: 'valuePath'; attr: string; filter: Node };

const OPS = new Set(['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le']);
const MAX_LENGTH = 2000;
const MAX_DEPTH = 20;
const MAX_TERMS = 50;
const CORE_PREFIX = /^urn:ietf:params:scim:schemas:core:2\.0:(user|group):/i;
const TOKEN =
  /\s*(?:(\(|\)|\[|\])|("(?:[^"\\]|\\.)*")|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)(?![\w.:])|([A-Za-z$][\w.:$-]*))/y;

type Token = { type: 'punct' | 'string' | 'number' | 'word'; text: string; at: number };

function bad(detail: string): ScimInvalidFilterError {
  return new ScimInvalidFilterError(detail);
}

function tokenize(filter: string): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  let at = 0;
  while (at < filter.length) {
    if (/^\s*$/.test(filter.slice(at))) break;
    TOKEN.lastIndex = at;
    const m = TOKEN.exec(filter);
    if (!m) throw bad(`Unsupported filter near ${JSON.stringify(filter.slice(at, at + 60).trim())}`);
    const [all, punct, str, num, word] = m;
    if (punct) tokens.push({ type: 'punct', text: punct, at });
    else if (str) tokens.push({ type: 'string', text: str, at });
    else if (num) tokens.push({ type: 'number', text: num, at });
    else if (word) tokens.push({ type: 'word', text: word, at });
    at += all.length;
  }
  return tokens;
}

/** RFC 7644 3.4.2.2's grammar: `not` binds tighter than `and`, `and` tighter than `or`. */
class Parser {
  private i = 0;
  private terms = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly source: string,
  ) {}

  parse(): Node {
    const node = this.or(0, false);
    if (this.peek()) throw this.unexpected();
    return node;
  }

  private peek(): Token | undefined {
    return this.tokens[this.i];
  }

  private unexpected(): ScimInvalidFilterError {
    const t = this.peek();
    return t
      ? bad(`Unsupported filter near ${JSON.stringify(this.source.slice(t.at, t.at + 60).trim())}`)
      : bad('Unsupported filter: it ends too early');
  }

  private word(w: string): boolean {
    const t = this.peek();
    if (t?.type === 'word' && t.text.toLowerCase() === w) {
      this.i++;
      return true;
    }
    return false;
  }

  private punct(p: string): boolean {
    if (this.peek()?.type === 'punct' && this.peek()?.text === p) {
      this.i++;
      return true;
    }
    return false;
  }

  private or(depth: number, inValuePath: boolean): Node {
    let left = this.and(depth, inValuePath);
    while (this.word('or')) left = { kind: 'or', left, right: this.and(depth, inValuePath) };
    return left;
  }

  private and(depth: number, inValuePath: boolean): Node {
    let left = this.unary(depth, inValuePath);
    while (this.word('and')) left = { kind: 'and', left, right: this.unary(depth, inValuePath) };
    return left;
  }

  private unary(depth: number, inValuePath: boolean): Node {
    if (depth > MAX_DEPTH) throw bad(`The filter nests deeper than ${MAX_DEPTH} levels`);
    if (this.word('not')) {
      if (!this.punct('(')) throw bad('not must be followed by a parenthesized filter');
      const inner = this.or(depth + 1, inValuePath);
      if (!this.punct(')')) throw this.unexpected();
      return { kind: 'not', inner };
    }
    if (this.punct('(')) {
      const inner = this.or(depth + 1, inValuePath);
      if (!this.punct(')')) throw this.unexpected();
      return inner;
    }
    return this.attrExpr(depth, inValuePath);
  }

  private attrExpr(depth: number, inValuePath: boolean): Node {
    const t = this.peek();
    if (t?.type !== 'word') throw this.unexpected();
    this.i++;
    if (++this.terms > MAX_TERMS) throw bad(`The filter has more than ${MAX_TERMS} terms`);
    const attr = t.text.replace(CORE_PREFIX, '').toLowerCase();
    if (this.punct('[')) {
      if (inValuePath) throw bad('A value path cannot hold another one');
      const filter = this.or(depth + 1, true);
      if (!this.punct(']')) throw this.unexpected();
      return { kind: 'valuePath', attr, filter };
    }
    if (this.word('pr')) return { kind: 'present', attr };
    const op = this.peek();
    if (op?.type !== 'word' || !OPS.has(op.text.toLowerCase())) throw this.unexpected();
    this.i++;
    return { kind: 'compare', attr, op: op.text.toLowerCase() as Op, value: this.literal() };
  }

  private literal(): Literal {
    const t = this.peek();
    if (!t) throw this.unexpected();
    this.i++;
    if (t.type === 'string') {
      try {
        return JSON.parse(t.text) as string;
      } catch {
        throw bad(`The filter value ${t.text.slice(0, 60)} is not a valid string`);
      }
    }
    if (t.type === 'number') return Number(t.text);
    const word = t.type === 'word' ? t.text.toLowerCase() : '';
    if (word === 'true' || word === 'false') return word === 'true';
    if (word === 'null') return null;
    this.i--;
    throw this.unexpected();
  }
}

/** Compiles a parsed filter to SQL, each value a parameter (never text in the query). */
class Compiler {
  constructor(
    private readonly attrs: ScimAttributes,
    private readonly values: unknown[],
  ) {}

  node(n: Node, scope: ScimAttributes, element: string | null): string {
    switch (n.kind) {
      case 'and':
      case 'or':
        return `(${this.node(n.left, scope, element)} ${n.kind.toUpperCase()} ${this.node(n.right, scope, element)})`;
      case 'not':
        return `NOT COALESCE(${this.node(n.inner, scope, element)}, false)`;
      case 'valuePath': {
        const a = this.attribute(n.attr, scope);
        if (!a.element || !a.sub) throw bad(`${n.attr} is not multi-valued: it has no value path`);
        const cond = this.node(n.filter, a.sub, a.element);
        return a.sql.replace(':cond', () => cond);
      }
      default:
        return this.term(n, scope);
    }
  }

  private attribute(name: string, scope: ScimAttributes): ScimAttribute {
    // Own keys only: `constructor eq "x"` must not find Object.prototype.constructor.
    const direct = Object.hasOwn(scope, name) ? scope[name] : undefined;
    if (direct) return direct;
    throw bad(`Filtering on ${name} is not supported (supported: ${Object.keys(scope).join(', ')})`);
  }

  private term(n: Extract<Node, { kind: 'compare' | 'present' }>, scope: ScimAttributes): string {
    const dot = n.attr.indexOf('.');
    // `emails.value eq "x"` is `emails[value eq "x"]`.
    if (!Object.hasOwn(scope, n.attr) && dot > 0) {
      const parent = n.attr.slice(0, dot);
      const a = Object.hasOwn(scope, parent) ? scope[parent] : undefined;
      if (a?.element && a.sub)
        return this.node(
          { kind: 'valuePath', attr: parent, filter: { ...n, attr: n.attr.slice(dot + 1) } },
          scope,
          null,
        );
    }
    const a = this.attribute(n.attr, scope);
    if (a.element && a.sub) {
      // A multi-valued attribute on its own compares its values (RFC 7644: `emails co "x"`, `members eq "id"`).
      const value = Object.hasOwn(a.sub, 'value') ? a.sub['value'] : undefined;
      if (!value) throw bad(`Filtering on ${n.attr} needs a sub-attribute`);
      const cond = this.term({ ...n, attr: 'value' }, a.sub);
      return a.sql.replace(':cond', () => cond);
    }
    const col = a.sql;
    if (a.type === 'unkept') return `(${col})`;
    if (n.kind === 'present')
      return a.type === 'string' ? `(${col} IS NOT NULL AND ${col} <> '')` : `(${col} IS NOT NULL)`;
    if (n.value === null) {
      if (n.op === 'eq') return `(${col} IS NULL)`;
      if (n.op === 'ne') return `(${col} IS NOT NULL)`;
      throw bad(`${n.op} null is not a comparison`);
    }
    if (a.type === 'boolean') {
      if (typeof n.value !== 'boolean') throw bad(`${n.attr} is a boolean: compare it with true or false`);
      if (n.op !== 'eq' && n.op !== 'ne') throw bad(`${n.attr} is a boolean: only eq and ne apply`);
      return n.op === 'eq' ? `(${col} = ${this.param(n.value)})` : `(${col} IS DISTINCT FROM ${this.param(n.value)})`;
    }
    if (typeof n.value !== 'string')
      throw bad(`${n.attr} is a ${a.type === 'dateTime' ? 'date-time' : 'string'}: give the value in quotes`);
    if (a.type === 'dateTime') {
      if (Number.isNaN(Date.parse(n.value))) throw bad(`${JSON.stringify(n.value.slice(0, 60))} is not a date-time`);
      if (['co', 'sw', 'ew'].includes(n.op)) throw bad(`${n.attr} is a date-time: ${n.op} does not apply`);
      return this.compare(col, n.op, `${this.param(new Date(n.value).toISOString())}::timestamptz`);
    }
    const [l, v] = a.caseExact ? [col, this.param(n.value)] : [`lower(${col})`, `lower(${this.param(n.value)})`];
    return this.compare(l, n.op, v);
  }

  private compare(l: string, op: Op, v: string): string {
    switch (op) {
      case 'eq':
        return `(${l} = ${v})`;
      case 'ne':
        return `(${l} IS DISTINCT FROM ${v})`;
      case 'co':
        return `(strpos(${l}, ${v}) > 0)`;
      case 'sw':
        return `(starts_with(${l}, ${v}))`;
      case 'ew':
        return `(right(${l}, length(${v})) = ${v})`;
      case 'gt':
        return `(${l} > ${v})`;
      case 'ge':
        return `(${l} >= ${v})`;
      case 'lt':
        return `(${l} < ${v})`;
      case 'le':
        return `(${l} <= ${v})`;
    }
  }

  private param(v: unknown): string {
    this.values.push(v);
    return `$${this.values.length}`;
  }
}

/**
 * RFC 7644 3.4.2.2 in full: `eq ne co sw ew pr gt ge lt le`, `and or not`, parentheses, value
 * paths (`emails[type eq "work"]`), attribute names in any case with or without the core schema
 * URN, on the attributes `attrs` names (lower case; the ones /Schemas says are filterable).
 * Returns the WHERE condition; `values` already holds the caller's parameters (numbering goes on
 * after them). Anything else is a 400 invalidFilter naming the problem.
 */
export function compileScimFilter(filter: string | undefined, attrs: ScimAttributes, values: unknown[]): string {
  if (filter === undefined || filter.trim() === '') return 'true';
  if (filter.length > MAX_LENGTH) throw bad(`The filter is longer than ${MAX_LENGTH} characters`);
  const tree = new Parser(tokenize(filter), filter).parse();
  return new Compiler(attrs, values).node(tree, attrs, null);
}

/** `sortBy` (RFC 7644 3.4.2.3): a single-valued attribute of `attrs`; its ORDER BY expression. */
export function scimSortExpression(sortBy: string | undefined, attrs: ScimAttributes): string | null {
  if (sortBy === undefined || sortBy.trim() === '') return null;
  const name = sortBy.trim().replace(CORE_PREFIX, '').toLowerCase();
  const a = Object.hasOwn(attrs, name) ? attrs[name] : undefined;
  if (!a || a.element)
    throw new ScimInvalidFilterError(
      `Sorting by ${sortBy.slice(0, 60)} is not supported (sortable: ${Object.entries(attrs)
        .filter(([, x]) => !x.element)
        .map(([k]) => k)
        .join(', ')})`,
    );
  return a.type === 'string' && !a.caseExact ? `lower(${a.sql})` : a.sql;
}
