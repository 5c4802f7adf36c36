import { type EntityManager } from 'typeorm';
import { type McpSettingsView } from '@hub/organizations-contract';

/** The only SQL on `organizations.mcp_settings`: one JSON document per user. */
export const McpStore = {
  async get(m: EntityManager, userId: string): Promise<McpSettingsView | undefined> {
    const [row] = (await m.query(`SELECT settings FROM organizations.mcp_settings WHERE user_id = $1`, [userId])) as {
      settings: string;
    }[];
    return row ? (JSON.parse(row.settings) as McpSettingsView) : undefined;
  },

  async put(m: EntityManager, userId: string, settings: McpSettingsView): Promise<void> {
    await m.query(
      `INSERT INTO organizations.mcp_settings (user_id, settings) VALUES ($1, $2)
       ON CONFLICT (user_id) DO UPDATE SET settings = EXCLUDED.settings, updated_at = now()`,
      [userId, JSON.stringify(settings)],
    );
  },
};
