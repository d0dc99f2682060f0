import { EventEmitter } from 'node:events';
import type { Server } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { watchIdleMemory } from './idle-memory';

afterEach(() => {
  vi.useRealTimers();
});

/** A stand-in for the HTTP server: requests are emitted, and end when their response closes. */
function fakeServer(): { server: Server; begin: () => () => void } {
  const emitter = new EventEmitter();
  return {
    server: emitter as unknown as Server,
    begin() {
      const res = new EventEmitter();
      emitter.emit('request', {}, res);
      return () => res.emit('close');
    },
  };
}

describe('watchIdleMemory', () => {
  it('reclaims once idleMs after the watch starts (start-up garbage), then only after growth', () => {
    vi.useFakeTimers();
    const { server, begin } = fakeServer();
    const idle = watchIdleMemory(server, { idleMs: 1000, growthBytes: 50, rss: () => 100, release: [], collect: () => undefined });
    vi.advanceTimersByTime(1000);
    expect(idle.reclaims()).toBe(1);
    begin()();
    vi.advanceTimersByTime(5000);
    expect(idle.reclaims()).toBe(1);
    idle.close();
  });

  it('releases and collects once, idleMs after the last request ended, when the RSS grew', () => {
    vi.useFakeTimers();
    let rss = 100;
    const events: string[] = [];
    const { server, begin } = fakeServer();
    const idle = watchIdleMemory(server, { idleMs: 1000, growthBytes: 50, rss: () => rss, release: [() => events.push('release')], collect: () => events.push('collect') });
    vi.advanceTimersByTime(1000);
    events.splice(0);
    const endFirst = begin();
    const endSecond = begin();
    rss = 200;
    endFirst();
    vi.advanceTimersByTime(5000);
    expect(events).toEqual([]);
    endSecond();
    vi.advanceTimersByTime(999);
    expect(events).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(events).toEqual(['release', 'collect']);
    expect(idle.reclaims()).toBe(2);
    // The RSS after the reclaim is the new baseline: no growth, no second reclaim.
    begin()();
    vi.advanceTimersByTime(5000);
    expect(idle.reclaims()).toBe(2);
    idle.close();
  });

  it('starts no reclaim when a request arrives before the server was idle long enough', () => {
    vi.useFakeTimers();
    let rss = 100;
    const { server, begin } = fakeServer();
    const idle = watchIdleMemory(server, { idleMs: 1000, growthBytes: 50, rss: () => rss, release: [], collect: () => undefined });
    vi.advanceTimersByTime(1000);
    rss = 500;
    begin()();
    vi.advanceTimersByTime(500);
    const end = begin();
    vi.advanceTimersByTime(5000);
    expect(idle.reclaims()).toBe(1);
    end();
    vi.advanceTimersByTime(1000);
    expect(idle.reclaims()).toBe(2);
    idle.close();
  });

  it('reclaims idleMs after work outside requests, whatever the growth, and after the requests then under way', () => {
    vi.useFakeTimers();
    const { server, begin } = fakeServer();
    const idle = watchIdleMemory(server, { idleMs: 1000, growthBytes: 50, rss: () => 100, release: [], collect: () => undefined });
    vi.advanceTimersByTime(1000);
    expect(idle.reclaims()).toBe(1);
    // The RSS did not grow by growthBytes: only the work's end makes it reclaim.
    idle.afterWork();
    vi.advanceTimersByTime(999);
    expect(idle.reclaims()).toBe(1);
    vi.advanceTimersByTime(1);
    expect(idle.reclaims()).toBe(2);
    const end = begin();
    idle.afterWork();
    vi.advanceTimersByTime(5000);
    expect(idle.reclaims()).toBe(2);
    end();
    vi.advanceTimersByTime(1000);
    expect(idle.reclaims()).toBe(3);
    idle.close();
  });

  it('stops watching when closed', () => {
    vi.useFakeTimers();
    let rss = 100;
    const { server, begin } = fakeServer();
    const idle = watchIdleMemory(server, { idleMs: 1000, growthBytes: 50, rss: () => rss, release: [], collect: () => undefined });
    rss = 500;
    begin()();
    idle.close();
    vi.advanceTimersByTime(5000);
    expect(idle.reclaims()).toBe(0);
  });

  describe('under sustained load (pressure)', () => {
    function loaded() {
      vi.useFakeTimers();
      const state = { rss: 100 };
      const events: string[] = [];
      const { server, begin } = fakeServer();
      const idle = watchIdleMemory(server, {
        idleMs: 1000,
        growthBytes: 50,
        rss: () => state.rss,
        release: [() => events.push('release')],
        collect: () => events.push('collect'),
        pressure: { growthBytes: 200, intervalMs: 5000 },
      });
      return { state, events, idle, begin };
    }

    it('releases and collects while requests run once the RSS passed the growth, at most every intervalMs', () => {
      const { state, events, idle, begin } = loaded();
      const end = begin();
      vi.advanceTimersByTime(3000);
      expect(idle.pressured()).toBe(0);
      state.rss = 301;
      vi.advanceTimersByTime(1000);
      expect(idle.pressured()).toBe(1);
      expect(events).toEqual(['release', 'collect']);
      vi.advanceTimersByTime(3000);
      expect(idle.pressured()).toBe(1);
      vi.advanceTimersByTime(2000);
      expect(idle.pressured()).toBe(2);
      end();
      idle.close();
    });

    it('stays quiet below the growth, and once no request is under way', () => {
      const { state, idle, begin } = loaded();
      const end = begin();
      state.rss = 299;
      vi.advanceTimersByTime(10_000);
      expect(idle.pressured()).toBe(0);
      end();
      state.rss = 900;
      vi.advanceTimersByTime(10_000);
      expect(idle.pressured()).toBe(0);
      // The idle reclaim still ran once the requests had ended.
      expect(idle.reclaims()).toBe(1);
      idle.close();
    });

    it('counts the growth from the RSS after the last idle reclaim', () => {
      const { state, idle, begin } = loaded();
      state.rss = 250;
      vi.advanceTimersByTime(1000);
      expect(idle.reclaims()).toBe(1);
      const end = begin();
      state.rss = 400;
      vi.advanceTimersByTime(2000);
      expect(idle.pressured()).toBe(0);
      state.rss = 451;
      vi.advanceTimersByTime(1000);
      expect(idle.pressured()).toBe(1);
      end();
      idle.close();
    });
  });
});
