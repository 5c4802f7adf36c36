import { http } from '../http-client';
import { type HubTarget, makeUser } from '../hub-factory';

/** MCP settings (spec 4.3): defaults for a new user, changed through the admin API. */
export function mcpScenarios(target: () => HubTarget): void {
  describe('MCP settings', () => {
    it('gives a new user the defaults, then what the admin API set', async () => {
      const t = target();
      const user = await makeUser(t);
      const first = await http<{ builtInTools: string[]; spaceTools: unknown[] }>(
        t.baseUrl,
        'GET',
        '/api/settings/mcp',
        { token: user.token },
      );
      expect(first.status).toBe(200);
      expect(first.body.builtInTools).toContain('hf_whoami');
      expect(first.body.spaceTools).toEqual([]);
      const settings = {
        builtInTools: ['model_search'],
        spaceTools: [{ _id: '0123456789abcdef01234567', name: 'acme/flux', emoji: '🎨', subdomain: 'acme-flux' }],
      };
      const put = await http(t.baseUrl, 'PUT', `/admin/users/${user.name}/mcp`, {
        token: t.adminToken,
        body: settings,
      });
      expect({ status: put.status, body: put.body }).toEqual({ status: 200, body: settings });
      expect((await http(t.baseUrl, 'GET', '/api/settings/mcp', { token: user.token })).body).toEqual(settings);
      expect((await http(t.baseUrl, 'GET', '/api/settings/mcp')).status).toBe(401);
    });

    it('refuses bad settings with a 400 naming the field, and an unknown user with a 404', async () => {
      const t = target();
      const user = await makeUser(t);
      const bad = await http<{ error: string }>(t.baseUrl, 'PUT', `/admin/users/${user.name}/mcp`, {
        token: t.adminToken,
        body: { builtInTools: 'x', spaceTools: [] },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatch(/builtInTools/);
      const badSpace = await http<{ error: string }>(t.baseUrl, 'PUT', `/admin/users/${user.name}/mcp`, {
        token: t.adminToken,
        body: { builtInTools: [], spaceTools: [{ _id: 'nope', name: 'a/b', emoji: '', subdomain: 'a-b' }] },
      });
      expect(badSpace.status).toBe(400);
      expect(badSpace.body.error).toMatch(/_id/);
      expect(
        (
          await http(t.baseUrl, 'PUT', '/admin/users/ghost-user-zz/mcp', {
            token: t.adminToken,
            body: { builtInTools: [], spaceTools: [] },
          })
        ).status,
      ).toBe(404);
    });
  });
}
