// A field far over its length limit is refused from its UTF-16 length, before Ajv walks it; the answer
// is the one Ajv gives, and Ajv still counts characters (code points) for everything else.
import Fastify, { type FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { handleError } from '../../src/http/errors.js';
import { registerLengthPrecheck } from '../../src/http/length-precheck.js';

async function app() {
  const a = Fastify({ bodyLimit: 12 << 20 });
  a.setErrorHandler(handleError);
  registerLengthPrecheck(a);
  a.post(
    '/limited',
    {
      schema: {
        body: {
          type: 'object',
          properties: { name: { type: 'string', maxLength: 10 } },
        },
      },
    },
    async () => ({ ok: true }),
  );
  await a.ready();
  return a;
}

const post = async (name: unknown) => {
  const a = await app();
  const res = await a.inject({ method: 'POST', url: '/limited', payload: { name } });
  await a.close();
  return res;
};

describe('the length pre-check', () => {
  it("answers a string far over its limit with the words of Ajv's own refusal", async () => {
    const byAjv = await post('x'.repeat(11));
    const byPrecheck = await post('x'.repeat(21));
    expect(byAjv.statusCode).toBe(400);
    expect(byPrecheck.statusCode).toBe(400);
    expect(byPrecheck.body).toBe(byAjv.body);
    expect(byPrecheck.body).toBe('validation_error: "name" must be at most 10 characters');
  });

  it('leaves characters outside the BMP to Ajv, which counts each as one', async () => {
    expect((await post('💌'.repeat(10))).statusCode).toBe(200); // 20 code units, 10 characters
    expect((await post('💌'.repeat(11))).statusCode).toBe(400);
  });

  it('refuses a 10 MiB field without Ajv walking it', async () => {
    // Ajv would count 10 Mi code points; the pre-check answers from `length`. The baseline, measured in
    // this run: the same body sent to a route without a schema, which only receives and parses it.
    const checked = await app();
    const bare = Fastify({ bodyLimit: 12 << 20 });
    bare.post('/limited', async () => ({ ok: true }));
    await bare.ready();
    const payload = Buffer.from(JSON.stringify({ name: 'x'.repeat(10 << 20) }));
    const cpu = async (target: FastifyInstance) => {
      const start = process.cpuUsage();
      await target.inject({
        method: 'POST',
        url: '/limited',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      const used = process.cpuUsage(start);
      return used.user + used.system;
    };
    // In turns, the best of four each: a collection that lands in one request is not charged to its
    // side alone.
    let withCheck = Infinity;
    let parsingAlone = Infinity;
    for (let i = 0; i < 4; i++) {
      withCheck = Math.min(withCheck, await cpu(checked));
      parsingAlone = Math.min(parsingAlone, await cpu(bare));
    }
    // Walking the string would add about as much again as parsing it.
    expect(withCheck).toBeLessThan(parsingAlone * 1.5);
    await Promise.all([checked.close(), bare.close()]);
  });
});
