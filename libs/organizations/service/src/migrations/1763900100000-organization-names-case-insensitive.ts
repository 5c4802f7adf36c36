import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Organization names are unique whatever their case (the shared name space with users is kept
 * by credentials; this index guards the table itself). Duplicates stop the migration by name.
 * `name_registered` says whether credentials' name registry holds the name: organizations that
 * exist now are not there yet (false; OrganizationNamesReconciler registers them at start), new
 * ones reserve it before they are created (default true).
 */
export class OrganizationNamesCaseInsensitive1763900100000 implements MigrationInterface {
  name = 'OrganizationNamesCaseInsensitive1763900100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DO $$
      DECLARE dup text;
      BEGIN
        SELECT string_agg(k, ', ') INTO dup FROM (
          SELECT lower(name) AS k FROM organizations.organizations GROUP BY lower(name) HAVING count(*) > 1) d;
        IF dup IS NOT NULL THEN
          RAISE EXCEPTION 'organizations whose names differ only in case: %; rename them, then migrate again', dup;
        END IF;
      END $$`);
    await q.query(`CREATE UNIQUE INDEX organizations_name_lower ON organizations.organizations (lower(name))`);
    await q.query(`ALTER TABLE organizations.organizations ADD COLUMN name_registered boolean NOT NULL DEFAULT false`);
    await q.query(`ALTER TABLE organizations.organizations ALTER COLUMN name_registered SET DEFAULT true`);
    await q.query(
      `CREATE INDEX organizations_name_unregistered ON organizations.organizations (id) WHERE NOT name_registered`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX organizations.organizations_name_unregistered`);
    await q.query(`ALTER TABLE organizations.organizations DROP COLUMN name_registered`);
    await q.query(`DROP INDEX organizations.organizations_name_lower`);
  }
}
