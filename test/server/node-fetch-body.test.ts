/**
 * `createNodeFetch`'s answers: the body as it arrives (also large, also read slowly), an
 * answer cut before its end is an error to its reader, every header as the service sent it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { serve } from '../support/node-server.js';
import { createNodeFetch } from '../../src/server/node.js';

describe('createNodeFetch answers', () => {
  test('a large body arrives whole, also when its reader takes its time', async () => {
    const chunk = 'x'.repeat(64 * 1024);
    const base = await serve((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/plain' });
      for (let i = 0; i < 32; i++) res.write(chunk);
      res.end('end');
    });
    const answer = await createNodeFetch()(new Request(`${base}/big`));
    const reader = answer.body!.getReader();
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    assert.equal(size, 32 * chunk.length + 3);
  });

  test('an answer cut before its end errors its body', async () => {
    const base = await serve((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"partial":');
      setTimeout(() => res.destroy(), 20);
    });
    const answer = await createNodeFetch()(new Request(`${base}/cut`));
    await assert.rejects(answer.text());
  });

  test('every header as sent: repeated ones, cookies, status text', async () => {
    const base = await serve((req, res) => {
      req.resume();
      res.setHeader('set-cookie', ['a=1', 'b=2']);
      res.setHeader('x-list', ['one', 'two']);
      res.statusMessage = 'Fine';
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
    const answer = await createNodeFetch()(new Request(`${base}/headers`));
    assert.equal(answer.statusText, 'Fine');
    assert.deepEqual(answer.headers.getSetCookie(), ['a=1', 'b=2']);
    assert.equal(answer.headers.get('x-list'), 'one, two');
    assert.equal(await answer.text(), 'ok');
  });

  test('a body canceled unread closes the connection it came on', async () => {
    let closed = false;
    const base = await serve((req, res) => {
      req.resume();
      res.on('close', () => (closed = true));
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('start');
    });
    const answer = await createNodeFetch()(new Request(`${base}/endless`));
    await answer.body!.cancel();
    for (let i = 0; i < 100 && !closed; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(closed, true);
  });
});
