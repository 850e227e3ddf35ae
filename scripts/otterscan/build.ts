// Otterscan's static build for `npm run otterscan`: a build or checkout the developer names, or
// v2.10.0 built from its source once into blocktrace's cache directory and reused. The build is
// the one Otterscan's own Dockerfile makes (`npm ci`, then `npm run build`: tsc and vite build);
// install scripts are skipped (cypress would download its binary; the build needs none of them).
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export const OTTERSCAN = {
  version: '2.10.0',
  tag: 'v2.10.0',
  /** The tag's commit on `develop` ("2.10.0 (#3397)"), for a clone or mirror that lacks the tag. */
  commit: '15356828696e2f5260cb99dfdabb371f7eded0be',
  repository: 'https://github.com/otterscan/otterscan.git',
} as const;

export interface BuildOptions {
  /** A build (a folder with index.html) or a checkout (with package.json) named by --otterscan. */
  readonly otterscan: string | undefined;
  /** Where v2.10.0's source is fetched from: a git URL or the path of a clone or mirror. */
  readonly git: string;
  /** blocktrace's cache directory; the build goes to `otterscan-v2.10.0` in it. */
  readonly cache: string;
  readonly log: (line: string) => void;
}

/** The folder of Otterscan's static files (index.html, assets/), built first when needed. */
export function otterscanBuild(options: BuildOptions): string {
  const { otterscan, log } = options;
  if (otterscan !== undefined) {
    if (existsSync(join(otterscan, 'index.html')) && !existsSync(join(otterscan, 'package.json'))) return otterscan;
    const dist = join(otterscan, 'dist');
    if (!existsSync(join(otterscan, 'package.json'))) throw new Error(`--otterscan ${otterscan}: neither a build (index.html) nor a checkout (package.json)`);
    const version = packageVersion(otterscan);
    if (version !== OTTERSCAN.version) log(`${otterscan} is Otterscan ${version}; the checks were written against ${OTTERSCAN.version}`);
    if (existsSync(join(dist, 'index.html'))) return dist;
    build(otterscan, log);
    return dist;
  }
  const target = join(options.cache, `otterscan-${OTTERSCAN.tag}`);
  if (existsSync(join(target, 'index.html'))) return target;
  const work = `${target}.build-${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  try {
    checkout(options.git, work, log);
    build(work, log);
    rmSync(target, { recursive: true, force: true });
    renameSync(join(work, 'dist'), target);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  log(`built into ${target} (reused from now on; remove it to build again)`);
  return target;
}

/** Fetches v2.10.0 (the tag, else its commit) from `git` into `dir` and checks its version. */
function checkout(git: string, dir: string, log: (line: string) => void): void {
  run(['git', 'init', '-q', dir], '.', log);
  const fetched = [`refs/tags/${OTTERSCAN.tag}`, OTTERSCAN.commit].some((ref) => {
    const step = Bun.spawnSync(['git', '-C', dir, 'fetch', '-q', '--depth', '1', git, ref], { stdout: 'ignore', stderr: 'pipe' });
    return step.exitCode === 0;
  });
  if (!fetched) throw new Error(`git fetch: ${git} has neither ${OTTERSCAN.tag} nor commit ${OTTERSCAN.commit} (clone ${OTTERSCAN.repository} and pass --git DIR or --otterscan DIR)`);
  run(['git', '-C', dir, 'checkout', '-q', 'FETCH_HEAD'], '.', log);
  const commit = Bun.spawnSync(['git', '-C', dir, 'rev-parse', 'HEAD']).stdout.toString().trim();
  const version = packageVersion(dir);
  if (version !== OTTERSCAN.version) throw new Error(`${git} at ${commit}: Otterscan ${version}, not ${OTTERSCAN.version}`);
  log(`source: Otterscan ${version} at ${commit} from ${git}`);
}

function build(dir: string, log: (line: string) => void): void {
  run(['npm', 'ci', '--ignore-scripts', '--no-audit', '--no-fund'], dir, log);
  run(['npm', 'run', 'build'], dir, log);
}

/** Runs one build step in `dir`, logging its time; its output is shown only when it fails. */
function run(cmd: readonly string[], dir: string, log: (line: string) => void): void {
  const started = performance.now();
  const step = Bun.spawnSync([...cmd], { cwd: dir, stdout: 'pipe', stderr: 'pipe' });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (step.exitCode !== 0) {
    const output = `${step.stdout.toString()}${step.stderr.toString()}`.split('\n').slice(-30).join('\n');
    throw new Error(`${cmd.join(' ')} (in ${dir}) exited with ${step.exitCode} after ${seconds} s:\n${output}`);
  }
  log(`${cmd.join(' ')}: ${seconds} s`);
}

function packageVersion(dir: string): string {
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}
