import { subjectMatches } from './subject-match';

describe('subjectMatches', () => {
  it.each([
    ['hub.events.>', 'hub.events.repo.update', true],
    ['hub.events.>', 'hub.events', false],
    ['hub.*.repo', 'hub.events.repo', true],
    ['hub.*.repo', 'hub.events.repo.update', false],
    ['hub.audit.org.create', 'hub.audit.org.create', true],
    ['hub.audit.org.create', 'hub.audit.org', false],
  ])('%s against %s is %s', (pattern, subj, expected) => {
    expect(subjectMatches(pattern, subj)).toBe(expected);
  });
});
