export interface MailContent {
  subject: string;
  body: string;
}

/** The owner's notice for tokens revoked as leaked; never the token itself, only its last four. */
export function leakedTokensMail(user: string, tokens: { last4: string; displayName: string }[]): MailContent {
  const list = tokens.map((t) => `  - "${t.displayName}" (ending in ${t.last4})`).join('\n');
  const plural = tokens.length > 1;
  return {
    subject: plural ? 'Your access tokens were revoked' : 'Your access token was revoked',
    body:
      `Hello ${user},\n\n` +
      `${plural ? 'These access tokens were' : 'This access token was'} reported as leaked and ` +
      `${plural ? 'have' : 'has'} been revoked. ${plural ? 'They no longer work' : 'It no longer works'}:\n\n` +
      `${list}\n\n` +
      `If you still need access, create a new token in your settings. If you did not publish ` +
      `${plural ? 'these tokens' : 'this token'} yourself, review your account's recent activity.\n`,
  };
}
