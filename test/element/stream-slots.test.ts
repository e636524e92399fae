/**
 * The event streams of one site's tabs (src/element/stream-slots.ts): at most three to a host,
 * the tabs in view and those shown last first. Each `StreamSlots` here is a tab of its own
 * (every `BroadcastChannel` object hears the others of its name, in one page too).
 */
import { assert, waitUntil } from '@open-wc/testing';
import { STREAMS_PER_HOST, StreamSlots } from '../../src/element/stream-slots.js';

const settle = () => new Promise((resolve) => setTimeout(resolve, 30));
let tabs: StreamSlots[] = [];
let name = '';

/** A tab shown at `shownAt` (its clock), in view or not. */
const tab = (shownAt: number, view: { visible: boolean } = { visible: true }) => {
  let clock = shownAt;
  const slots = new StreamSlots(name, { now: () => clock, visible: () => view.visible });
  tabs.push(slots);
  return { slots, view, at: (time: number) => (clock = time) };
};

describe('stream slots: the event streams of a site’s tabs', () => {
  beforeEach(() => {
    name = `test-streams-${Math.random()}`;
  });
  afterEach(() => {
    for (const slots of tabs) slots.close();
    tabs = [];
  });

  it('lets three streams to a host be open at once; a tab shown later takes the place of the one shown first', async () => {
    assert.equal(STREAMS_PER_HOST, 3);
    const yielded: string[] = [];
    const held = [];
    for (const [index, label] of ['a', 'b', 'c'].entries()) {
      const slot = await tab(index + 1).slots.claim(() => yielded.push(label));
      assert.ok(slot, `${label} gets a place`);
      held.push(slot);
      await settle();
    }
    assert.deepEqual(yielded, []);
    const d = await tab(10).slots.claim(() => yielded.push('d'));
    assert.ok(d, 'the tab shown last gets a place');
    await waitUntil(() => yielded.length > 0, 'the tab shown first gives its place up');
    await settle();
    assert.deepEqual(yielded, ['a']);
  });

  it('puts the tabs in view before hidden ones, and refuses a hidden tab when those in view hold every place', async () => {
    const hidden = tab(100, { visible: false });
    const yielded: string[] = [];
    assert.ok(await hidden.slots.claim(() => yielded.push('hidden')), 'alone, a hidden tab keeps its stream');
    await settle();
    for (const at of [1, 2]) {
      assert.ok(await tab(at).slots.claim(() => yielded.push(`seen ${at}`)));
      await settle();
    }
    assert.deepEqual(yielded, [], 'three streams: nobody yields');
    assert.ok(await tab(3).slots.claim(() => yielded.push('seen 3')));
    await waitUntil(() => yielded.length > 0);
    await settle();
    assert.deepEqual(yielded, ['hidden'], 'a tab in view outranks a hidden one shown later');
    const late = tab(200, { visible: false });
    assert.ok((await late.slots.claim(() => yielded.push('late'))) === undefined, 'no place for a hidden newcomer');
  });

  it('moves a tab up when it is shown again, and frees the places of a tab that leaves', async () => {
    const yielded: string[] = [];
    const first = tab(1);
    assert.ok(await first.slots.claim(() => yielded.push('first')));
    const others = [tab(2), tab(3)];
    for (const other of others) assert.ok(await other.slots.claim(() => yielded.push('other')));
    await settle();
    // The first tab is shown again: it is now the one shown last.
    first.at(50);
    first.slots.shown(true);
    const fourth = tab(40);
    assert.ok(await fourth.slots.claim(() => yielded.push('fourth')));
    await waitUntil(() => yielded.length > 0);
    await settle();
    assert.deepEqual(yielded, ['other'], 'the tab shown longest ago yields, not the one shown again');
    // A tab that leaves (pagehide) says so: its places are free at once.
    others[1]!.slots.close();
    await settle();
    assert.ok(await tab(0, { visible: false }).slots.claim(() => yielded.push('after')), 'a place freed by a tab that left');
  });

  it('releases a place when its stream ends, and lets every stream open without BroadcastChannel', async () => {
    const slots = await Promise.all([tab(1), tab(2), tab(3)].map(({ slots }) => slots.claim(() => undefined)));
    await settle();
    assert.ok((await tab(0, { visible: false }).slots.claim(() => undefined)) === undefined, 'every place is taken');
    slots[0]!.release();
    await settle();
    assert.ok(await tab(0, { visible: false }).slots.claim(() => undefined), 'the released place is taken');
    const original = globalThis.BroadcastChannel;
    try {
      // @ts-expect-error: a browser without BroadcastChannel
      delete globalThis.BroadcastChannel;
      const lone = new StreamSlots(name);
      tabs.push(lone);
      for (let index = 0; index < 5; index++) assert.ok(await lone.claim(() => assert.fail('nothing to yield to')));
    } finally {
      globalThis.BroadcastChannel = original;
    }
  });

  it('ignores messages that are not a tab’s', async () => {
    const own = tab(1);
    assert.ok(await own.slots.claim(() => assert.fail('a stranger took the place')));
    const stranger = new BroadcastChannel(name);
    for (const data of [null, 'x', { type: 'state', tab: 'z', streams: 'all' }, { type: 'state', streams: [1, 2, 3] }])
      stranger.postMessage(data);
    stranger.postMessage({ type: 'state', tab: 'z', visible: true, shownAt: 0, streams: [1] });
    await settle();
    stranger.close();
  });
});
