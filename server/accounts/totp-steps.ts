import type { Ephemeral } from '../state/ephemeral';

/**
 * The TOTP time steps already used for a sign-in (beyond.md §4.2: "a code accepted once"), kept in
 * the shared-ephemeral store rather than the state store: a sign-in with a code then writes nothing
 * durable (the JSON store fsyncs its file and folder on every write, ~3 ms; issue B3), and every
 * instance on one PostgreSQL sees the same marks.
 *
 * Restart (decided): a code lives at most (2 * drift + 1) steps, 90 s. With the in-process store
 * (one instance on the JSON file) a restart forgets the marks, so a code used in the 90 s before a
 * restart could be used once more after it, by someone who also has the password. That window is
 * accepted rather than paying a durable write on every sign-in; with PostgreSQL the marks outlive
 * any instance. The durable `lastStep` of the record is still honoured as a floor (enrolment writes
 * it, and state files of earlier versions hold it), it is no longer written by a sign-in.
 */
export interface UsedTotpSteps {
  /**
   * Marks `step` of an enrolment used; true when this call is the first to (atomic across
   * instances). The steps from `oldest` up to `step` are marked too, so an older code still inside
   * the drift window is refused once a newer one was used.
   */
  claim(enrolment: TotpEnrolmentKey, step: number, oldest: number): Promise<boolean>;
}

/** One enrolment: a user's record, told from a later one of the same user by its creation time. */
export interface TotpEnrolmentKey {
  userId: number;
  created: number;
}

/**
 * How long a mark is kept: a step's code is accepted from `drift` steps before the step to `drift`
 * steps after it, (2 * drift + 1) steps in all; one step more for clocks of instances that differ.
 */
export function markTtlMs(periodS: number, drift: number): number {
  return (2 * drift + 2) * periodS * 1000;
}

/** The used steps on the shared-ephemeral store, under `totp:<userId>:<created>:<step>`. */
export function usedTotpSteps(ephemeral: Ephemeral, ttlMs: number): UsedTotpSteps {
  const key = (e: TotpEnrolmentKey, step: number) => `totp:${e.userId}:${e.created}:${step}`;
  return {
    async claim(enrolment, step, oldest) {
      // In parallel: one round trip with PostgreSQL. Only a valid code gets here, so marking the
      // older steps whether or not this call wins burns nothing a replay of this code did not.
      // `oldest` is the first step inside the drift window: at most 2 * drift marks more.
      const older: Array<Promise<boolean>> = [];
      for (let s = oldest; s < step; s++) older.push(ephemeral.putIfAbsent(key(enrolment, s), 1, ttlMs));
      const [won] = await Promise.all([ephemeral.putIfAbsent(key(enrolment, step), 1, ttlMs), ...older]);
      return won;
    },
  };
}
