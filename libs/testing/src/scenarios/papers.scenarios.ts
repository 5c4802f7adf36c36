import { http } from '../http-client';
import { type HubTarget, makeUser } from '../hub-factory';

interface Paper {
  id: string;
  authors: { _id: string; name: string; claimedBy?: string }[];
}

let serial = 0;
/** A paper id no other test uses (yymm.nnnnn). */
const paperId = (): string =>
  `${2400 + (Date.now() % 90)}.${String((Date.now() * 7 + serial++) % 100000).padStart(5, '0')}`;

/** Paper claims (spec 4.3) with the rules of decision 0410, in both run modes. */
export function papersScenarios(target: () => HubTarget): void {
  describe('paper claims', () => {
    const makePaper = async (t: HubTarget): Promise<Paper> => {
      const res = await http<Paper>(t.baseUrl, 'POST', '/admin/papers', {
        token: t.adminToken,
        body: { id: paperId(), title: 'Attention', authors: [{ name: 'A. One' }, { name: 'B. Two' }] },
      });
      expect(res.status).toBe(201);
      return res.body;
    };
    const claim = (
      t: HubTarget,
      token: string,
      body: unknown,
    ): ReturnType<typeof http<{ ok: boolean; claimedPaperId: string }>> =>
      http(t.baseUrl, 'POST', '/api/settings/papers/claim', { token, body });

    it('claims an author entry once; the same claim again is fine, another user gets 409', async () => {
      const t = target();
      const paper = await makePaper(t);
      const alice = await makeUser(t);
      const bob = await makeUser(t);
      const entry = paper.authors[0]?._id ?? '';
      const res = await claim(t, alice.token, { paperId: paper.id, claimAuthorId: entry.toUpperCase() });
      expect({ status: res.status, body: res.body }).toEqual({
        status: 200,
        body: { ok: true, claimedPaperId: paper.id },
      });
      expect(
        (await claim(t, alice.token, { paperId: paper.id, claimAuthorId: entry, targetUserId: alice.id.toUpperCase() }))
          .status,
      ).toBe(200);
      expect((await claim(t, bob.token, { paperId: paper.id, claimAuthorId: entry })).status).toBe(409);
      // One entry per paper and user.
      expect((await claim(t, alice.token, { paperId: paper.id, claimAuthorId: paper.authors[1]?._id })).status).toBe(
        409,
      );
      expect((await claim(t, bob.token, { paperId: paper.id, claimAuthorId: paper.authors[1]?._id })).status).toBe(200);
    });

    it('takes papers from hub.events.paper.* too', async () => {
      const t = target();
      const alice = await makeUser(t);
      const id = paperId();
      const author = 'abcdefabcdefabcdefabcdef';
      const pub = await http(t.baseUrl, 'POST', '/admin/events', {
        token: t.adminToken,
        body: {
          subject: 'hub.events.paper.create',
          payload: { paper: { id, title: 'From the bus', authors: [{ _id: author.toUpperCase(), name: 'C. Three' }] } },
        },
      });
      expect(pub.status).toBe(202);
      const until = Date.now() + 10_000;
      let status = 0;
      while (Date.now() < until && status !== 200) {
        status = (await claim(t, alice.token, { paperId: id, claimAuthorId: author })).status;
        if (status !== 200) await new Promise((r) => setTimeout(r, 150));
      }
      expect(status).toBe(200);
    });

    it('404s an unknown paper or entry, 403s a claim for someone else, 400s malformed ids', async () => {
      const t = target();
      const paper = await makePaper(t);
      const alice = await makeUser(t);
      const bob = await makeUser(t);
      expect(
        (await claim(t, alice.token, { paperId: '1999.99999', claimAuthorId: paper.authors[0]?._id })).status,
      ).toBe(404);
      expect(
        (await claim(t, alice.token, { paperId: paper.id, claimAuthorId: '0123456789abcdef01234567' })).status,
      ).toBe(404);
      expect(
        (await claim(t, alice.token, { paperId: paper.id, claimAuthorId: paper.authors[0]?._id, targetUserId: bob.id }))
          .status,
      ).toBe(403);
      for (const [body, word] of [
        [{ paperId: '2401.123', claimAuthorId: paper.authors[0]?._id }, /paperId/],
        [{ paperId: paper.id, claimAuthorId: 'xyz' }, /claimAuthorId/],
        [{ paperId: paper.id }, /claimAuthorId/],
        [{ paperId: paper.id, claimAuthorId: paper.authors[0]?._id, targetUserId: 'g'.repeat(24) }, /targetUserId/],
      ] as const) {
        const res = await claim(t, alice.token, body);
        expect({ body, status: res.status }).toEqual({ body, status: 400 });
        expect((res.body as unknown as { error: string }).error).toMatch(word);
      }
      expect(
        (
          await http(t.baseUrl, 'POST', '/api/settings/papers/claim', {
            body: { paperId: paper.id, claimAuthorId: paper.authors[0]?._id },
          })
        ).status,
      ).toBe(401);
    });
  });
}
