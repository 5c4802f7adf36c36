/**
 * The one place the receiver reads its secret: the option wins, else `WEBHOOK_SECRET`
 * (spec 4.8 rule 4). An empty string counts as "no secret", as an unset variable in a
 * container often ends up being one.
 */
export function resolveWebhookSecret(
  option: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const secret = option ?? env['WEBHOOK_SECRET'];
  return secret === '' ? undefined : secret;
}

export const OPEN_ROUTES_WARNING =
  'No webhook secret configured (option `secret` or WEBHOOK_SECRET): every /webhooks/* route accepts requests from anyone.';
