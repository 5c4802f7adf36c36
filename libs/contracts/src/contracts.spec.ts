import { AUDIT_EVENT_TYPES, JOB_FLAVORS, JOB_STAGES, ORG_PLANS, planAtLeast, REPO_TYPES } from './enums';

describe('spec enums', () => {
  it('hold exactly the spec values', () => {
    expect(REPO_TYPES).toEqual(['dataset', 'model', 'space', 'bucket', 'kernel']);
    expect(JOB_STAGES).toEqual(['COMPLETED', 'CANCELED', 'ERROR', 'DELETED', 'RUNNING', 'SCHEDULING']);
    expect(JOB_FLAVORS).toHaveLength(29);
    expect(AUDIT_EVENT_TYPES).toHaveLength(119);
    expect(new Set(AUDIT_EVENT_TYPES).size).toBe(119);
  });

  it('order plans so gates read "this plan or higher"', () => {
    expect(ORG_PLANS).toEqual(['free', 'team', 'enterprise', 'enterprise_plus']);
    expect(planAtLeast('enterprise_plus', 'enterprise')).toBe(true);
    expect(planAtLeast('team', 'enterprise')).toBe(false);
  });
});
