import { subjectMatches, subjectRegex } from './subject-match';

describe('subjectMatches', () => {
  it.each([
    ['hub.events.>', 'hub.events.repo.update', true],
    ['hub.events.>', 'hub.events', false],
    ['hub.*.repo', 'hub.events.repo', true],
    ['hub.*.repo', 'hub.events.repo.update', false],
    ['hub.audit.org.create', 'hub.audit.org.create', true],
    ['hub.audit.org.create', 'hub.audit.org', false],
    ['hub.events.>', 'hub.eventsX.repo', false],
    ['hub.a+b.>', 'hub.a+b.c', true],
    ['hub.a+b.>', 'hub.aab.c', false],
    ['p-1.hub.*.x', 'p-1.hub.jobs.x', true],
  ])('%s against %s is %s', (pattern, subj, expected) => {
    expect(subjectMatches(pattern, subj)).toBe(expected);
    expect(new RegExp(subjectRegex(pattern)).test(subj)).toBe(expected);
  });
});
