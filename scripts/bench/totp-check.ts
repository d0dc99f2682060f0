// The TOTP check itself (issue B3: "a TOTP check < 1 ms"), in this process: checkSecondFactor on
// a JSON-file state store (the default), each call with a fresh code of another enrolled user,
// median of BENCH_TOTP_CHECKS (default 200). The HTTP row of tokens.ts cannot show a difference
// under 1 ms: bcrypt's ~100 ms varies by more than that from one sign-in to the next.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Secret, TOTP } from 'otpauth';
import { checkSecondFactor, totpStepsOn } from '../../server/accounts/totp';
import { sealSecret } from '../../server/accounts/totp-secret';
import { createMemoryEphemeral } from '../../server/state/ephemeral';
import { emptyDatabase } from '../../server/state/initial';
import { openFileStore } from '../../server/state/store';
import { envNumber } from './filemgr-process';
import { median, type Figure } from './measure';

export async function totpCheckFigure(log: (line: string) => void): Promise<Figure> {
  const count = envNumber('BENCH_TOTP_CHECKS', 200);
  const dir = await mkdtemp(join(tmpdir(), 'filemgr-bench-totp-'));
  try {
    const { store } = await openFileStore(join(dir, 'filemgr.json'), () => emptyDatabase());
    const secrets = Array.from({ length: count }, () => new Secret({ size: 20 }).base32);
    await store.update((db) => {
      db.totp = secrets.map((secret, i) => ({ userId: 1000 + i, secret: sealSecret(db.settings.key, secret), enabled: true, lastStep: 0, recovery: [], created: 1 }));
    });
    const on = { store, steps: totpStepsOn(createMemoryEphemeral()) };
    const times: number[] = [];
    for (const [i, secret] of secrets.entries()) {
      const nowMs = Date.now();
      const code = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp: nowMs });
      const start = performance.now();
      const ok = await checkSecondFactor(on, 1000 + i, { code, nowMs });
      times.push(performance.now() - start);
      if (!ok) throw new Error('a fresh TOTP code was refused');
    }
    log(`  checkSecondFactor on a JSON-file store, ${count} users: median ${median(times).toFixed(3)} ms, slowest ${Math.max(...times).toFixed(3)} ms`);
    return { label: 'TOTP check of a sign-in, in process (median)', value: median(times), unit: 'ms', baseline: { label: 'goal', value: 1 } };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
