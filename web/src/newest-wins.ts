// The session as the dashboard knows it is written from several places at once: the first read, a
// re-read after a refusal or an ended session, a log-in's or a sign-up's answer, a refresh after
// two-factor enrolment. Their answers can come back in any order, and an older one must not undo a
// newer one: a re-read sent while a member was still to enrol, answering after the enrolment's own
// refresh, would put the member back behind the enrolment gate. So each write is numbered as it
// starts, and a read's answer is kept only if nothing was started after it. A page's own reads
// (components/use-api.ts) follow the same rule.

export interface NewestWins<T> {
  /** Adopts `value` now (an answer in hand: a log-in's); every read started before is dropped. */
  set(value: T): void;
  /**
   * Adopts what `get` answers, unless another read or a `set` started since (then `stale`). A failure
   * is thrown only while the read is still the newest; a stale one's failure says nothing either.
   */
  read(get: () => Promise<T>): Promise<'adopted' | 'stale'>;
}

export function newestWins<T>(adopt: (value: T) => void): NewestWins<T> {
  let latest = 0;
  return {
    set(value) {
      latest += 1;
      adopt(value);
    },
    async read(get) {
      const mine = ++latest;
      let value: T;
      try {
        value = await get();
      } catch (err) {
        if (mine !== latest) return 'stale';
        throw err;
      }
      if (mine !== latest) return 'stale';
      adopt(value);
      return 'adopted';
    },
  };
}
