import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * CI has no container runtime, so the container is checked from its files: the Dockerfile's stages and
 * instructions, that what it copies exists and is not ignored, the compose example, and that the
 * server bundle needs nothing but production dependencies.
 */
const root = path.resolve(import.meta.dirname, '../..');
const read = (name: string) => readFileSync(path.join(root, name), 'utf8');

interface Instruction {
  op: string;
  args: string;
}
interface Stage {
  image: string;
  name: string;
  instructions: Instruction[];
}

function dockerfileStages(text: string): Stage[] {
  const args = new Map<string, string>();
  const stages: Stage[] = [];
  const logical = text
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  for (const line of logical) {
    const [, op = '', rest = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    const expanded = rest.replace(/\$\{(\w+)\}/g, (whole, name: string) => args.get(name) ?? whole);
    if (op.toUpperCase() === 'ARG' && stages.length === 0) {
      const [name, value = ''] = expanded.split('=');
      args.set(name!, value);
    } else if (op.toUpperCase() === 'FROM') {
      const [, image = '', name = ''] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(expanded) ?? [];
      stages.push({ image, name, instructions: [] });
    } else {
      stages.at(-1)?.instructions.push({ op: op.toUpperCase(), args: expanded.replace(/\s+/g, ' ') });
    }
  }
  return stages;
}

const stages = dockerfileStages(read('Dockerfile'));
const final = stages.at(-1)!;
const of = (stage: Stage, op: string) => stage.instructions.filter((i) => i.op === op).map((i) => i.args);
const execForm = (args: string): string[] => JSON.parse(args.replace(/^CMD\s+/, ''));

describe('Dockerfile', () => {
  it('builds in stages from a Node 20 image: build, production dependencies, runtime', () => {
    expect(stages.map((s) => s.name)).toEqual(['build', 'deps', 'runtime']);
    for (const stage of stages) expect(stage.image).toMatch(/^node:20[.\w-]*$/);
    expect(of(stages[0]!, 'RUN')).toEqual(expect.arrayContaining([expect.stringMatching(/^npm ci\b/), 'npm run build']));
  });

  it('runs as a non-root user, with production dependencies only', () => {
    const users = of(final, 'USER');
    expect(users).toHaveLength(1);
    expect(users[0]).not.toMatch(/^(root|0)(:|$)/);
    // USER before CMD and HEALTHCHECK: both run as that user.
    const index = (op: string) => final.instructions.findIndex((i) => i.op === op);
    expect(index('USER')).toBeLessThan(index('CMD'));
    expect(index('USER')).toBeLessThan(index('HEALTHCHECK'));
    // node_modules comes only from the stage that installed with --omit=dev.
    const copies = of(final, 'COPY');
    const modules = copies.filter((args) => /node_modules/.test(args));
    expect(modules).toEqual(['--from=deps /app/node_modules ./node_modules']);
    expect(of(stages.find((s) => s.name === 'deps')!, 'RUN').join(' ')).toMatch(/npm ci --omit=dev/);
    expect(of(final, 'RUN').join(' ')).not.toMatch(/npm (ci|install)/);
  });

  it('copies from earlier stages only, and only files that exist and are not in .dockerignore', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#') && !line.startsWith('!'))
      .map((pattern) => new RegExp(`^${pattern.replace(/[.+^$()|[\]{}]/g, '\\$&').replace(/\*/g, '[^/]*')}(/|$)`));
    for (const [i, stage] of stages.entries()) {
      for (const args of of(stage, 'COPY')) {
        const parts = args.split(' ');
        const from = /^--from=(\S+)$/.exec(parts[0]!)?.[1];
        if (from) {
          expect(
            stages.slice(0, i).map((s) => s.name),
            `COPY --from=${from}`,
          ).toContain(from);
          continue;
        }
        for (const source of parts.slice(0, -1)) {
          expect(existsSync(path.join(root, source)), `${source} exists`).toBe(true);
          expect(
            ignored.some((pattern) => pattern.test(source)),
            `${source} is not excluded by .dockerignore`,
          ).toBe(false);
        }
      }
    }
  });

  it('starts the built server directly, with the audit log on a volume', () => {
    const cmd = execForm(of(final, 'CMD')[0]!);
    expect(cmd).toEqual(['node', 'dist/server/main.js']);
    // The SSR build writes the main entry there.
    expect(read('vite.config.ts')).toMatch(/outDir: 'dist\/server'/);
    expect(read('vite.config.ts')).toMatch(/main: 'src\/server\/main\.ts'/);
    const env = of(final, 'ENV').join(' ');
    const auditLog = /AUDIT_LOG=(\S+)/.exec(env)?.[1];
    const volume = JSON.parse(of(final, 'VOLUME')[0]!)[0] as string;
    expect(auditLog?.startsWith(`${volume}/`)).toBe(true);
    expect(env).toMatch(/HOST=0\.0\.0\.0/);
    // Logs as JSON lines for the collector, even when the container is given a terminal (docker run -t).
    expect(env).toMatch(/LOG_FORMAT=json/);
  });

  it('checks health with Node itself (slim images have no curl), on /healthz', () => {
    const healthcheck = of(final, 'HEALTHCHECK');
    expect(healthcheck).toHaveLength(1);
    const command = execForm(healthcheck[0]!.replace(/^.*?\bCMD\s+/, ''));
    expect(command.slice(0, 2)).toEqual(['node', '-e']);
    expect(command[2]).toContain('/healthz');
    expect(healthcheck[0]).not.toMatch(/curl|wget/);
  });
});

describe('compose.yaml', () => {
  const compose = parse(read('compose.yaml'), { merge: true }) as {
    services: Record<
      string,
      { build?: string; image?: string; read_only?: boolean; environment?: Record<string, string>; volumes?: string[] }
    >;
    volumes: Record<string, unknown>;
  };
  const apps = Object.entries(compose.services).filter(([, service]) => service.build === '.');

  it('runs two instances of the app with a read-only root, Redis, and a volume for the audit log', () => {
    expect(apps).toHaveLength(2);
    const redis = Object.entries(compose.services).find(([, service]) => service.image?.startsWith('redis'));
    expect(redis).toBeDefined();
    for (const [name, service] of apps) {
      expect(service.read_only, name).toBe(true);
      expect(service.environment?.REDIS_URL, name).toBe(`redis://${redis![0]}:6379`);
      // Behind the load balancer, its X-Forwarded-For is what tells users apart.
      expect(service.environment?.TRUSTED_PROXIES, name).toMatch(/^\$\{TRUSTED_PROXIES:\?/);
      const auditVolume = service.volumes?.find((volume) => service.environment?.AUDIT_LOG?.startsWith(`${volume.split(':')[1]}/`));
      expect(auditVolume, `${name}: AUDIT_LOG on a volume`).toBeDefined();
      expect(Object.keys(compose.volumes)).toContain(auditVolume!.split(':')[0]);
    }
  });

  it('gives each instance its own audit file: one writer per hash chain', () => {
    const files = apps.map(([, service]) => service.environment?.AUDIT_LOG);
    expect(new Set(files).size).toBe(apps.length);
  });

  it('writes every instance to one audit table, each under a name of its own that stays across restarts (issue 34)', () => {
    const postgres = Object.entries(compose.services).find(([, service]) => service.image?.startsWith('postgres'));
    expect(postgres).toBeDefined();
    const urls = apps.map(([, service]) => service.environment?.DATABASE_URL);
    expect(new Set(urls).size).toBe(1);
    expect(urls[0]).toMatch(new RegExp(`^postgres://[^@]+@${postgres![0]}:5432/`));
    const names = apps.map(([, service]) => service.environment?.AUDIT_INSTANCE);
    expect(names.every(Boolean) && new Set(names).size === apps.length).toBe(true);
  });
});

describe('the production server bundle', () => {
  // What the SSR build bundles: these entries and everything they import from src/. Packages are left
  // as imports (Vite externalizes dependencies for SSR), so each must be a production dependency.
  const entries = [...read('vite.config.ts').matchAll(/'(src\/server\/[^']+\.ts)'/g)].map((m) => m[1]!);
  const pkg = JSON.parse(read('package.json')) as { dependencies: Record<string, string> };

  function runtimeImports(file: string, seen = new Set<string>()): Set<string> {
    const packages = new Set<string>();
    if (seen.has(file)) return packages;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    const specs = [
      ...source.matchAll(/^\s*(?:import|export)\s+(?!type\s)[^'";]*?from\s+['"]([^'"]+)['"]/gm),
      ...source.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm),
      ...source.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g),
    ].map((m) => m[1]!);
    for (const spec of specs) {
      if (spec.startsWith('.')) {
        for (const found of runtimeImports(path.resolve(path.dirname(file), spec), seen)) packages.add(found);
      } else if (!spec.startsWith('node:') && !builtinModules.includes(spec)) {
        packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
      }
    }
    return packages;
  }

  it('imports production dependencies only', () => {
    expect(entries).toEqual(expect.arrayContaining(['src/server/main.ts', 'src/server/sandbox/main.ts', 'src/server/cli/user-add.ts']));
    const used = new Set(entries.flatMap((entry) => [...runtimeImports(path.join(root, entry))]));
    expect([...used].filter((name) => !(name in pkg.dependencies))).toEqual([]);
    expect(used).toContain('sirv'); // the walk reaches the packages the server really uses
  });

  it('leaves nothing the server needs outside dist/ and node_modules', () => {
    // Files read at run time by path must not live in src/ or public/ (not in the image).
    const serverFiles = readdirSync(path.join(root, 'src/server'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    for (const file of serverFiles) {
      expect(read(`src/server/${file}`), file).not.toMatch(/['"`](\.\.\/)+(src|public|test)\//);
    }
  });
});
