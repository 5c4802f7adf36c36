import { http } from '../http-client';
import { addMember, makeToken, uniqueName } from '../hub-factory';
import { answerConfirm, type ConsoleBrowser, noViolations, shot, signedIn } from './console-page';

/** The Operator screen's lists (the admin API's, decision 0004): users paged and searched, a user's tokens, organizations. */
export function consoleOperatorScenarios(c: ConsoleBrowser): void {
  it("shows the operator users (searched, paged), a user's tokens without their values, and organizations with member counts", async () => {
    const t = c.t();
    const prefix = uniqueName('listed');
    // One more than the console's page of 20.
    const names = Array.from({ length: 21 }, (_, i) => `${prefix}-${String(i).padStart(2, '0')}`);
    for (let i = 0; i < names.length; i += 7)
      await Promise.all(
        names.slice(i, i + 7).map(async (name) => {
          const res = await http(t.baseUrl, 'POST', '/admin/users', {
            token: t.adminToken,
            body: { name, email: `${name}@example.com` },
          });
          expect(res.status).toBe(201);
        }),
      );
    const owner = names[0] as string;
    const ci = await http<{ token: string }>(t.baseUrl, 'POST', `/admin/users/${owner}/tokens`, {
      token: t.adminToken,
      body: { role: 'read', displayName: 'CI read' },
    });
    const leaked = await makeToken(t, owner, 'write');
    await http(t.baseUrl, 'POST', '/api/credentials/revoke', { body: { credentials: [leaked.token] } });
    const org = `${prefix}-org`;
    await http(t.baseUrl, 'POST', '/admin/organizations', {
      token: t.adminToken,
      body: { name: org, plan: 'team', admins: [owner] },
    });
    await addMember(t, org, names[1] as string, 'read');

    const { page, csp } = await signedIn(c, t.adminToken);
    await page.getByRole('heading', { name: 'Operator' }).waitFor();
    await page.getByLabel('Search users').fill(prefix);
    await page.getByRole('button', { name: 'Search users' }).click();
    await page.waitForURL(new RegExp(`users=${prefix}`));
    const users = page.getByRole('table', { name: /^Users/ });
    // The first column: the full name is the name too when none was given.
    const user = (name: string): ReturnType<typeof page.getByText> =>
      users.locator('tbody td:first-child').getByText(name, { exact: true });
    await user(names[19] as string).waitFor();
    await expect(users.locator('tbody tr').count()).resolves.toBe(20);
    await page.getByRole('button', { name: 'Next page of users' }).click();
    await user(names[20] as string).waitFor();
    await expect(users.locator('tbody tr').count()).resolves.toBe(1);
    await expect(page.getByRole('button', { name: 'Next page of users' }).isDisabled()).resolves.toBe(true);
    await page.getByRole('button', { name: 'Previous page of users' }).click();
    await user(owner).waitFor();

    await users.getByRole('button', { name: `Show tokens of ${owner}` }).click();
    await page.waitForURL(new RegExp(`tokensOf=${owner}`));
    const tokens = page.getByRole('table', { name: new RegExp(`^Tokens of ${owner}`) });
    const ciRow = tokens.getByRole('row').filter({ hasText: 'CI read' });
    await ciRow.waitFor();
    await expect(ciRow.getByRole('cell').allInnerTexts()).resolves.toEqual(
      expect.arrayContaining(['read', `…${ci.body.token.slice(-4)}`, 'active']),
    );
    await tokens.getByRole('row').filter({ hasText: 'revoked' }).waitFor();
    const content = await page.content();
    for (const raw of [ci.body.token, leaked.token]) expect(content).not.toContain(raw.slice(3, -4));

    // Revoke by id (decision 0807): asked first, a cancel keeps it working; then it stops at once.
    const whoami = async (): Promise<number> =>
      (await http(t.baseUrl, 'GET', '/api/whoami-v2', { token: ci.body.token })).status;
    const last4 = ci.body.token.slice(-4);
    await ciRow.getByRole('button', { name: `Revoke token CI read ending ${last4}` }).click();
    await answerConfirm(page, `The token ending …${last4} stops working at once`, false);
    await expect(whoami()).resolves.toBe(200);
    await ciRow.getByRole('button', { name: `Revoke token CI read ending ${last4}` }).click();
    await answerConfirm(page, `The token ending …${last4} stops working at once`, true);
    await page.getByText(`Revoked the token ending …${last4}`).waitFor();
    await ciRow.getByRole('cell', { name: /^revoked / }).waitFor();
    await expect(ciRow.getByRole('button', { name: /^Revoke/ }).count()).resolves.toBe(0);
    await expect(whoami()).resolves.toBe(401);
    // The API: a repeat answers the token as it is; an id not among the user's is a 404; a user token may not.
    const tokenId = (
      await http<{ id: string; displayName: string }[]>(t.baseUrl, 'GET', `/admin/users/${owner}/tokens?search=CI`, {
        token: t.adminToken,
      })
    ).body[0]?.id;
    const again = await http<{ revokedAt: string | null }>(
      t.baseUrl,
      'POST',
      `/admin/users/${owner}/tokens/${tokenId}/revoke`,
      { token: t.adminToken },
    );
    expect(again.status).toBe(200);
    expect(again.body.revokedAt).toEqual(expect.any(String));
    const missing = await http(t.baseUrl, 'POST', `/admin/users/${names[1]}/tokens/${tokenId}/revoke`, {
      token: t.adminToken,
    });
    expect(missing.status).toBe(404);
    expect(JSON.stringify(missing.body)).toContain(`${names[1]} has no token ${tokenId}`);
    const asUser = await makeToken(t, names[2] as string, 'write');
    expect(
      (await http(t.baseUrl, 'POST', `/admin/users/${owner}/tokens/${tokenId}/revoke`, { token: asUser.token })).status,
    ).toBe(403);

    // The organizations' filter, from the keyboard (Enter submits it).
    await page.getByLabel('Search organizations').fill(org);
    await page.getByLabel('Search organizations').press('Enter');
    const orgRow = page
      .getByRole('table', { name: /^Organizations/ })
      .getByRole('row')
      .filter({ hasText: org });
    await orgRow.waitFor();
    await expect(orgRow.getByRole('cell').nth(3).innerText()).resolves.toBe('2');
    await noViolations(page, 'operator lists');
    await shot(page, 'operator');
    // Made on this screen: the lists read again.
    await page.getByLabel('User name', { exact: true }).fill(`${prefix}-new`);
    await page.getByLabel('E-mail').fill(`${prefix}-new@example.com`);
    await page.getByRole('button', { name: 'Create user' }).click();
    await page.getByText('User created').waitFor();
    await page.getByRole('button', { name: 'Next page of users' }).click();
    await user(`${prefix}-new`).waitFor();
    expect(csp).toEqual([]);
    await page.close();
  }, 90_000);
}
