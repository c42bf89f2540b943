// Bytes held in memory (memory-budget.ts; the API's request bodies, the receiver's messages): the budget and each
// client network's share of it.
import { describe, expect, it } from 'vitest';
import { MemoryBudget } from '../../src/memory-budget.js';

describe('MemoryBudget', () => {
  it("refuses what would pass a network's share, and counts nothing of it", () => {
    const memory = new MemoryBudget({ total: 1000, perPeer: 400 });
    expect(memory.take('a', 300)).toBe(true);
    expect(memory.take('a', 101)).toBe(false);
    expect(memory.take('a', 100)).toBe(true);
    expect([memory.held('a'), memory.held()]).toEqual([400, 400]);
    expect(memory.take('b', 400)).toBe(true);
  });

  it('refuses what would pass the whole budget, whichever network asks', () => {
    const memory = new MemoryBudget({ total: 1000, perPeer: 400 });
    for (const peer of ['a', 'b']) expect(memory.take(peer, 400)).toBe(true);
    expect(memory.take('c', 201)).toBe(false);
    expect(memory.take('c', 200)).toBe(true);
    expect(memory.held()).toBe(1000);
  });

  it('gives bytes back, forgets a network that holds none, and tells each change', () => {
    const told: number[] = [];
    const memory = new MemoryBudget({ total: 1000, perPeer: 400 }, (held) => told.push(held));
    memory.take('a', 300);
    memory.take('b', 100);
    memory.give('a', 300);
    memory.give('b', 0);
    expect([memory.held('a'), memory.held('b'), memory.held()]).toEqual([0, 100, 100]);
    expect(told).toEqual([300, 400, 100]);
    expect(memory.take('a', 400)).toBe(true);
  });

  it('says the room a network has left: the smaller of its share and the whole', () => {
    const memory = new MemoryBudget({ total: 1000, perPeer: 400 });
    memory.take('a', 300);
    memory.take('b', 400);
    memory.take('c', 200);
    expect([memory.room('a'), memory.room('d')]).toEqual([100, 100]);
    expect(new MemoryBudget({ total: 0, perPeer: 400 }).room('a')).toBe(400);
    expect(new MemoryBudget({ total: 0, perPeer: 0 }).room('a')).toBe(Infinity);
  });

  it('holds a take to no share when asked, and keeps what `leave` says free of the whole', () => {
    const memory = new MemoryBudget({ total: 1000, perPeer: 400 });
    expect(memory.take('a', 300, { leave: 200 })).toBe(true);
    expect(memory.take('b', 400, { leave: 200 })).toBe(true);
    expect(memory.room('c', { leave: 200 })).toBe(100);
    expect(memory.take('c', 101, { leave: 200 })).toBe(false);
    expect(memory.take('t', 300, { perPeer: false })).toBe(true);
    expect(memory.take('t', 1, { perPeer: false })).toBe(false);
  });

  it('has no limit where a limit is 0', () => {
    const memory = new MemoryBudget({ total: 0, perPeer: 0 });
    expect(memory.take('a', 10 ** 12)).toBe(true);
  });
});
