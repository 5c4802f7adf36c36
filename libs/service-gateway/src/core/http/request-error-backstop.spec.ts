import { Logger } from '@nestjs/common';
import { handleUncaught } from './request-error-backstop';
import { EdgeError } from './json-body';

describe('handleUncaught', () => {
  let stderr: jest.SpyInstance;
  beforeAll(() => Logger.overrideLogger(false));
  beforeEach(() => (stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true)));
  afterEach(() => stderr.mockRestore());

  it('keeps the process for an error the edge raised for one request', () => {
    const exit = jest.fn();
    handleUncaught(new EdgeError(408, 'BODY_TIMEOUT', 'Request body not received within 10 ms'), exit);
    expect(exit).not.toHaveBeenCalled();
  });

  it('exits with 1 for anything else, as Node would', () => {
    for (const error of [
      new TypeError('x is undefined'),
      Object.assign(new Error('aborted'), { code: 'ECONNRESET' }),
      'a string',
    ]) {
      const exit = jest.fn();
      handleUncaught(error, exit);
      expect(exit).toHaveBeenCalledWith(1);
    }
  });
});
