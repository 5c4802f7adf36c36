import { jobRequestHeaders } from './job-expose.headers';

describe('jobRequestHeaders', () => {
  it("drops the caller's credentials and the hop-by-hop headers, keeps the rest", () => {
    expect(
      jobRequestHeaders({
        host: 'x--8080.jobs.localhost',
        authorization: 'Bearer hf_secret',
        'proxy-authorization': 'Basic eDp5',
        cookie: 'hub_session=abc; other=1',
        'x-csrf-token': 'csrf',
        connection: 'keep-alive',
        'transfer-encoding': 'chunked',
        upgrade: 'websocket',
        accept: 'text/html',
        'x-custom': ['a', 'b'],
        'content-type': 'application/json',
      }),
    ).toEqual({
      host: 'x--8080.jobs.localhost',
      accept: 'text/html',
      'x-custom': ['a', 'b'],
      'content-type': 'application/json',
    });
  });

  it('matches header names whatever their case', () => {
    expect(jobRequestHeaders({ Authorization: 'Bearer x', COOKIE: 'a=1', 'X-CSRF-Token': 'c', Accept: '*/*' })).toEqual(
      {
        Accept: '*/*',
      },
    );
  });
});
