import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { CreateScheduledJobDto } from './scheduled-jobs.dto';

const errorsOf = (body: object): string[] =>
  validateSync(plainToInstance(CreateScheduledJobDto, body), { whitelist: true, stopAtFirstError: true }).flatMap((e) =>
    Object.values(e.constraints ?? {}),
  );

describe('CreateScheduledJobDto', () => {
  it('names a missing or non-object jobSpec', () => {
    expect(errorsOf({ schedule: '@hourly' })).toEqual(['jobSpec is required']);
    expect(errorsOf({ schedule: '@hourly', jobSpec: null })).toEqual(['jobSpec is required']);
    expect(errorsOf({ schedule: '@hourly', jobSpec: 'x' })).toEqual(['jobSpec must be a JSON object']);
    expect(
      errorsOf({ schedule: '@hourly', jobSpec: { flavor: 'cpu-basic', dockerImage: 'alpine:3', command: ['true'] } }),
    ).toEqual([]);
  });
});
