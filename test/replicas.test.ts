// Replicas behind HAProxy (issue 50, item 5), by bench/replicas.ts's runner with deploy/haproxy.cfg as
// shipped: three `serve` replicas started at once on one fixture and one cache, clients checking
// every answer, one replica SIGTERMed with a long struct-log trace in flight on it (sent to it
// directly, so HAProxy cannot send it again: it must be answered whole, as the replica drains) and
// started again, another SIGKILLed and started again. No answer is wrong and no request fails: a
// request the killed replica held, or one sent as a replica's port closed, is sent again to another
// (retry-on conn-failure empty-response). The figures are the bench's.
import { expect, test } from 'bun:test';
import { replicasRun } from '../bench/replicas.ts';

const haproxy = Bun.which('haproxy');
if (haproxy === null) console.warn('test/replicas.test.ts skipped: no haproxy on PATH (Debian: apt-get install haproxy)');

test.skipIf(haproxy === null)('HAProxy, 3 replicas, a SIGTERM and a SIGKILL with restarts under load: no wrong answer, no failed request, the request in flight on the SIGTERMed replica answered, exit 0', async () => {
  const report = await replicasRun({ clients: 4, phaseMs: 800 });
  expect(report.requests).toBeGreaterThan(100);
  expect(report.inFlightAtKill).toBeGreaterThan(0);
  expect({ wrong: report.wrong, failures: report.failures, probeAnswered: report.probeAnswered, sigtermExit: report.sigtermExit, samples: report.samples }).toEqual({
    wrong: 0,
    failures: 0,
    probeAnswered: true,
    sigtermExit: 0,
    samples: [],
  });
}, 180_000);
