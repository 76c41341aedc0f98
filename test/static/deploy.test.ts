import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CONFIG_VARIABLES, loadConfig } from '../../src/settings/index.ts';

/**
 * The deployment files are product too: compose.yaml's gateways must start with the configuration
 * they are given, and the Dockerfile must ship what the runtime reads.
 */
const root = new URL('../../', import.meta.url);
const compose = parse(readFileSync(new URL('compose.yaml', root), 'utf8'), { merge: true }) as {
  services: Record<
    string,
    {
      environment?: Record<string, string>;
      read_only?: boolean;
      command?: string[];
      healthcheck?: { test: string[] };
      depends_on?: Record<string, { condition: string }> | string[];
      stop_grace_period?: string;
      env_file?: { path: string; required: boolean }[];
      image?: string;
      profiles?: string[];
      volumes?: string[];
      ports?: string[];
      tmpfs?: string[];
    }
  >;
};

describe('compose.yaml', () => {
  it('runs two gateway instances, Redis and the sandbox, all with read-only filesystems', () => {
    const always = Object.entries(compose.services).filter(([, service]) => !service.profiles);
    expect(always.map(([name]) => name).sort()).toEqual(['gateway-1', 'gateway-2', 'redis', 'sandbox']);
    for (const service of Object.values(compose.services)) expect(service.read_only).toBe(true);
    expect(compose.services.sandbox!.command).toEqual(['node', 'sandbox/src/main.ts']);
  });

  it('gives each gateway a configuration that loads, in service mode against the sandbox, sharing Redis', () => {
    for (const name of ['gateway-1', 'gateway-2']) {
      const config = loadConfig(compose.services[name]!.environment);
      expect(config.auth.mode).toBe('service');
      expect(config.upstream.bank?.baseUrl).toBe('http://sandbox:4010');
      expect(config.events.redis).toEqual({ url: 'redis://redis:6379' });
      expect(config.limits).toMatchObject({ production: true, introspection: false, graphiql: false });
    }
    expect(loadConfig(compose.services['gateway-1']!.environment).webhooks.publicUrl).toBe('http://gateway-1:4000');
  });

  it('starts the gateways only once Redis answers and the sandbox serves', () => {
    expect(compose.services.redis!.healthcheck!.test).toEqual(['CMD', 'redis-cli', 'ping']);
    expect(compose.services.sandbox!.healthcheck).toBeDefined();
    for (const name of ['gateway-1', 'gateway-2']) {
      expect(compose.services[name]!.depends_on).toEqual({
        redis: { condition: 'service_healthy' },
        sandbox: { condition: 'service_healthy' },
      });
    }
  });

  it('holds the hash of the demo API key its header comment uses, not the key', () => {
    const env = compose.services['gateway-1']!.environment!;
    const hash = createHash('sha256').update('demo-web-key').digest('hex');
    expect(env.GATEWAY_API_KEY_HASHES).toBe(`demo:${hash}:bookkeeper`);
    expect(JSON.stringify(compose)).not.toContain('demo-web-key');
  });

  it('signs webhook deliveries with the secret the gateways check', () => {
    expect(compose.services.sandbox!.environment!.SANDBOX_WEBHOOK_SIGNING_SECRET).toBe(
      compose.services['gateway-1']!.environment!.WEBHOOK_SIGNING_SECRET,
    );
  });
});

describe("compose.yaml's observability profile", () => {
  const prometheus = compose.services.prometheus!;
  const grafana = compose.services.grafana!;
  /** A volume's file or folder in the repository, by where the service mounts it read-only. */
  const mounted = (service: typeof prometheus, target: string) => {
    const volume = service.volumes!.find((entry) => entry.split(':')[1] === target);
    expect(volume, `${target} mounted`).toMatch(/^\.\/[^:]+:[^:]+:ro$/);
    return volume!.split(':')[0]!;
  };
  const readYaml = <T>(path: string) => parse(readFileSync(new URL(path, root), 'utf8')) as T;

  it('adds Prometheus and Grafana only with `--profile observability`, from images pinned to a release', () => {
    const profiled = Object.entries(compose.services).filter(([, service]) => service.profiles);
    expect(profiled.map(([name, service]) => [name, service.profiles])).toEqual([
      ['prometheus', ['observability']],
      ['grafana', ['observability']],
    ]);
    expect(prometheus.image).toMatch(/^prom\/prometheus:v\d+\.\d+\.\d+$/);
    expect(grafana.image).toMatch(/^grafana\/grafana:\d+\.\d+\.\d+$/);
    expect([prometheus.ports, grafana.ports]).toEqual([['9090:9090'], ['3001:3000']]);
    // Read-only root filesystems: their data lives in memory.
    expect(prometheus.tmpfs).toContain('/prometheus');
    expect(grafana.tmpfs).toContain('/var/lib/grafana');
  });

  it('mounts files that exist in the repository', () => {
    for (const service of [prometheus, grafana]) {
      for (const volume of service.volumes!) expect(existsSync(new URL(volume.split(':')[0]!, root)), volume).toBe(true);
    }
  });

  it('scrapes both gateways on their port with the METRICS_TOKEN they are given, and loads the alerting rules', () => {
    const config = readYaml<{
      rule_files: string[];
      scrape_configs: {
        job_name: string;
        metrics_path: string;
        authorization: { type: string; credentials: string };
        static_configs: { targets: string[] }[];
      }[];
    }>(mounted(prometheus, '/etc/prometheus/prometheus.yml'));
    expect(prometheus.command).toContain('--config.file=/etc/prometheus/prometheus.yml');
    const [job] = config.scrape_configs;
    expect(config.scrape_configs).toHaveLength(1);
    expect(job!.metrics_path).toBe('/metrics');
    const gateways = ['gateway-1', 'gateway-2'];
    expect(job!.static_configs.flatMap((c) => c.targets)).toEqual(
      gateways.map((name) => `${name}:${loadConfig(compose.services[name]!.environment).server.port}`),
    );
    for (const name of gateways)
      expect(job!.authorization).toEqual({ type: 'Bearer', credentials: compose.services[name]!.environment!.METRICS_TOKEN });
    expect(config.rule_files.map((file) => mounted(prometheus, file))).toEqual(['./deploy/observability/prometheus/alerts.yml']);
  });

  it('gives Grafana the Prometheus service as its data source, and the dashboard from the folder its provider reads', () => {
    const provisioning = mounted(grafana, '/etc/grafana/provisioning');
    const { datasources } = readYaml<{ datasources: { type: string; url: string }[] }>(`${provisioning}/datasources/prometheus.yml`);
    expect(datasources).toEqual([
      expect.objectContaining({ type: 'prometheus', url: `http://prometheus:${prometheus.ports![0]!.split(':')[1]}` }),
    ]);
    const { providers } = readYaml<{ providers: { type: string; options: { path: string } }[] }>(`${provisioning}/dashboards/gateway.yml`);
    expect(providers).toEqual([expect.objectContaining({ type: 'file', options: { path: '/etc/grafana/dashboards' } })]);
    expect(existsSync(new URL(`${mounted(grafana, '/etc/grafana/dashboards')}/gateway.json`, root))).toBe(true);
    expect(grafana.environment!.GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH).toBe('/etc/grafana/dashboards/gateway.json');
  });

  it('lets anonymous visitors look, never change, and takes the admin password from the environment', () => {
    expect(grafana.environment).toMatchObject({
      GF_AUTH_ANONYMOUS_ENABLED: 'true',
      GF_AUTH_ANONYMOUS_ORG_ROLE: 'Viewer',
      GF_USERS_ALLOW_SIGN_UP: 'false',
    });
    expect(grafana.environment!.GF_SECURITY_ADMIN_PASSWORD).toBe('${GRAFANA_ADMIN_PASSWORD:-admin}');
  });
});

describe('Dockerfile', () => {
  const dockerfile = readFileSync(new URL('Dockerfile', root), 'utf8');
  const runtime = dockerfile.slice(dockerfile.indexOf('AS runtime'));

  it('runs as the unprivileged node user, on the exact Node 24 release the project pins, with a health check', () => {
    const pinned = (JSON.parse(readFileSync(new URL('node_modules/node/package.json', root), 'utf8')) as { version: string }).version;
    expect(pinned).toMatch(/^24\.\d+\.\d+$/);
    expect(dockerfile).toMatch(new RegExp(`^ARG NODE_VERSION=${pinned.replaceAll('.', '\\.')}$`, 'm'));
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toContain('HEALTHCHECK');
    expect(runtime).toMatch(/^CMD \["node", "src\/main.ts"\]$/m);
  });

  it('sizes the heap for a container with the very flags `npm start` uses, overridable by NODE_OPTIONS', () => {
    const start = (JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { scripts: { start: string } }).scripts.start;
    const startFlags = /NODE_OPTIONS="([^"$]*)\$\{NODE_OPTIONS:-\}"/.exec(start)?.[1]?.trim();
    expect(startFlags).toMatch(/--max-old-space-size=\d+/);
    expect(runtime).toContain(`NODE_OPTIONS="${startFlags}"`);
  });

  it('ships the schema directory the runtime reads (the trusted-documents manifest) and every directory the typecheck covers', () => {
    expect(runtime).toMatch(/^COPY schema \.\/schema$/m);
    // The gateway imports the sandbox package (@banking-gateway/sandbox) and the settings package
    // (@banking-gateway/settings): their sources, and their manifests so npm links them.
    expect(runtime).toMatch(/^COPY sandbox\/src \.\/sandbox\/src$/m);
    expect(dockerfile.slice(0, dockerfile.indexOf('AS check'))).toMatch(/^COPY sandbox\/package\.json \.\/sandbox\/$/m);
    expect(runtime).toMatch(/^COPY packages\/settings\/src \.\/packages\/settings\/src$/m);
    expect(runtime).toMatch(/^COPY packages\/settings\/package\.json \.\/packages\/settings\/$/m);
    expect(dockerfile.slice(0, dockerfile.indexOf('AS check'))).toMatch(
      /^COPY packages\/settings\/package\.json \.\/packages\/settings\/$/m,
    );
    const tsconfig = JSON.parse(readFileSync(new URL('tsconfig.json', root), 'utf8')) as { include: string[] };
    const check = dockerfile.slice(dockerfile.indexOf('AS check'), dockerfile.indexOf('AS runtime'));
    for (const entry of tsconfig.include.filter((e) => !e.includes('.') && e !== 'scripts')) {
      expect(check).toContain(`COPY ${entry} ./${entry}`);
    }
    // An example a test imports (its sources and, before npm ci, its workspace's manifest) is typechecked with it.
    const examples = new Set(
      readdirSync(new URL('test/', root), { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.ts'))
        .flatMap((file) =>
          [...readFileSync(new URL(`test/${file}`, root), 'utf8').matchAll(/from '(?:\.\.\/)+examples\/([\w-]+)\//g)].map(
            (match) => match[1]!,
          ),
        ),
    );
    expect([...examples]).toEqual(['supergraph']);
    for (const example of examples) {
      expect(check).toContain(`COPY examples/${example} ./examples/${example}`);
      expect(check.slice(0, check.indexOf('RUN npm ci'))).toContain(`COPY examples/${example}/package.json ./examples/${example}/`);
    }
  });
});

describe('.env.example and the ignore files', () => {
  const example = readFileSync(new URL('.env.example', root), 'utf8');
  const named = [...example.matchAll(/^# ([A-Z][A-Z0-9_]+)=$/gm)].map((match) => match[1]);

  it('lists every variable the gateway and the standalone sandbox read, and nothing else', () => {
    expect([...named].sort()).toEqual([...CONFIG_VARIABLES].sort());
    // Nothing reads a variable behind the schema's back.
    const sandboxMain = readFileSync(new URL('sandbox/src/main.ts', root), 'utf8');
    expect(sandboxMain).not.toMatch(/process\.env\./);
  });

  it('matches docs/configuration.md, which documents every variable .env.example lists', () => {
    const documented = readFileSync(new URL('docs/configuration.md', root), 'utf8');
    expect(named.filter((name) => !documented.includes(`\`${name}\``))).toEqual([]);
  });

  it('keeps .env files out of git and out of the image, and compose reads one when it exists', () => {
    const lines = (file: string) => readFileSync(new URL(file, root), 'utf8').split('\n');
    expect(lines('.dockerignore')).toEqual(expect.arrayContaining(['.env', '.env.*']));
    expect(lines('.gitignore')).toEqual(expect.arrayContaining(['.env', '.env.*', '!.env.example']));
    expect(compose.services['gateway-1']!.env_file).toEqual([{ path: '.env', required: false }]);
  });

  it("gives each gateway a stop grace longer than its SHUTDOWN_GRACE_MS, so Docker's SIGKILL never cuts a graceful stop", () => {
    for (const name of ['gateway-1', 'gateway-2']) {
      const service = compose.services[name]!;
      const graceMs = loadConfig(service.environment).resilience.shutdownGraceMs;
      const stopMs = Number(/^(\d+)s$/.exec(service.stop_grace_period ?? '')?.[1]) * 1000;
      expect(stopMs).toBeGreaterThanOrEqual(graceMs + 5_000);
    }
  });
});
