import { readdirSync, readFileSync } from 'node:fs';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Namespace, Secret, Service, ServiceAccount } from 'kubernetes-models/v1';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { CONFIG_VARIABLES, loadConfig } from '../../src/settings/index.ts';

/**
 * deploy/kubernetes/ is product too, and no cluster runs here: every manifest is built with
 * kubernetes-models' class for its apiVersion and kind and validated against the Kubernetes API's
 * schema, then held to what the gateway needs (probes on its routes and port, its image's user and
 * read-only root, the graceful stop's timing, resources from the benchmark, settings its config
 * schema reads, the secrets the docs name).
 */

const root = new URL('../../', import.meta.url);
const DIR = new URL('deploy/kubernetes/', root);
const KUSTOMIZATION = 'kustomization.yaml';
/** Applied from your secret store, never by `kubectl apply -k`: its values are placeholders. */
const SECRET_EXAMPLE = 'secret.example.yaml';

const MODELS = {
  'v1/Namespace': Namespace,
  'v1/ServiceAccount': ServiceAccount,
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
} as const;

type Kind = keyof typeof MODELS;
type Model = InstanceType<(typeof MODELS)[Kind]>;

interface Manifest {
  file: string;
  kind: string;
  object: Model;
}

const read = (file: string) => readFileSync(new URL(file, DIR), 'utf8');
const files = readdirSync(DIR)
  .filter((name) => name.endsWith('.yaml'))
  .sort();

const manifests: Manifest[] = files
  .filter((file) => file !== KUSTOMIZATION)
  .flatMap((file) =>
    parseAllDocuments(read(file)).map((document) => {
      if (document.errors.length > 0) throw new Error(`${file}: ${document.errors.map((e) => e.message).join('; ')}`);
      const raw = document.toJS() as { apiVersion?: string; kind?: string };
      const kind = `${raw.apiVersion}/${raw.kind}`;
      const Class = MODELS[kind as Kind];
      if (!Class) throw new Error(`${file}: no model for ${kind}: add its kubernetes-models class to MODELS`);
      return { file, kind, object: new Class(raw as never) };
    }),
  );

function only<K extends Kind>(kind: K, file?: string): InstanceType<(typeof MODELS)[K]> {
  const found = manifests.filter((m) => m.kind === kind && (file === undefined || m.file === file));
  expect(
    found.map((m) => m.file),
    `one ${kind}${file ? ` in ${file}` : ''}`,
  ).toHaveLength(1);
  return found[0]!.object as InstanceType<(typeof MODELS)[K]>;
}

const deployment = only('apps/v1/Deployment');
const pod = deployment.spec!.template;
const container = pod.spec!.containers.find((c) => c.name === 'gateway')!;
const configMap = only('v1/ConfigMap');
const secret = only('v1/Secret', SECRET_EXAMPLE);
const service = only('v1/Service');
const pdb = only('policy/v1/PodDisruptionBudget');
const hpa = only('autoscaling/v2/HorizontalPodAutoscaler');
const settings = { ...configMap.data, ...secret.stringData } as Record<string, string>;
const podLabels = pod.metadata!.labels!;

/** A Kubernetes quantity in bytes (the binary and decimal suffixes these files use). */
function bytes(quantity: string | number | undefined): number {
  const match = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|k|M|G)?$/.exec(String(quantity));
  if (!match) throw new Error(`not a memory quantity: ${quantity}`);
  const unit = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, k: 1e3, M: 1e6, G: 1e9 }[match[2] ?? ''] ?? 1;
  return Number(match[1]) * unit;
}

/** Whether `selector` (matchLabels only: these files use no expressions) selects pods labelled `labels`. */
const selects = (selector: Record<string, string> | undefined, labels: Record<string, string>) =>
  selector !== undefined && Object.keys(selector).length > 0 && Object.entries(selector).every(([key, value]) => labels[key] === value);

/** The container port a probe or Service names, by name or number. */
function containerPort(port: string | number | undefined): number | undefined {
  return container.ports?.find((p) => p.name === port || p.containerPort === port)?.containerPort;
}

describe('deploy/kubernetes', () => {
  it('validates every manifest against the Kubernetes API schema of its kind', () => {
    expect(manifests.length).toBeGreaterThanOrEqual(files.length - 1);
    for (const { file, object } of manifests) expect(() => object.validate(), file).not.toThrow();
  });

  it('lists every manifest in kustomization.yaml, and only files that exist, leaving out the example Secret', () => {
    const kustomization = parseAllDocuments(read(KUSTOMIZATION))[0]!.toJS() as {
      resources: string[];
      namespace: string;
      images: { name: string }[];
    };
    const applied = files.filter((file) => file !== KUSTOMIZATION && file !== SECRET_EXAMPLE);
    expect([...kustomization.resources].sort()).toEqual(applied);
    expect(kustomization.images.map((image) => image.name)).toEqual([container.image]);
    expect(only('v1/Namespace').metadata!.name).toBe(kustomization.namespace);
    expect(secret.metadata!.namespace).toBe(kustomization.namespace);
  });

  it('probes liveness on /healthz and readiness on /readyz, the gateway routes, on the port it listens on', () => {
    expect(readFileSync(new URL('src/routes/healthz.ts', root), 'utf8')).toContain("route('/healthz'");
    expect(readFileSync(new URL('src/routes/readyz.ts', root), 'utf8')).toContain("route('/readyz'");
    const port = Number(settings.PORT);
    expect(containerPort('http')).toBe(port);
    expect(container.livenessProbe?.httpGet).toMatchObject({ path: '/healthz' });
    expect(container.startupProbe?.httpGet).toMatchObject({ path: '/healthz' });
    expect(container.readinessProbe?.httpGet).toMatchObject({ path: '/readyz' });
    for (const probe of [container.livenessProbe, container.startupProbe, container.readinessProbe]) {
      expect(containerPort(probe!.httpGet!.port)).toBe(port);
    }
    // An idle pod's readiness may probe the bank for up to 3 s (src/routes/health.ts, PROBE_TIMEOUT_MS).
    expect(container.readinessProbe!.timeoutSeconds).toBeGreaterThan(3);
    expect(pod.metadata!.annotations).toMatchObject({ 'prometheus.io/port': String(port), 'prometheus.io/path': '/metrics' });
  });

  it('runs as the image user, non-root, on a read-only root filesystem with a writable /tmp, no privileges', () => {
    const dockerfile = readFileSync(new URL('Dockerfile', root), 'utf8');
    expect(dockerfile.slice(dockerfile.indexOf('AS runtime'))).toMatch(/^USER node$/m);
    // The official Node images' `node` user: the kubelet needs the number to prove it is not root.
    expect(pod.spec!.securityContext).toMatchObject({
      runAsNonRoot: true,
      runAsUser: 1000,
      runAsGroup: 1000,
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(container.securityContext).toMatchObject({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      privileged: false,
      capabilities: { drop: ['ALL'] },
    });
    const tmp = container.volumeMounts?.find((mount) => mount.mountPath === '/tmp');
    expect(pod.spec!.volumes?.find((volume) => volume.name === tmp?.name)?.emptyDir).toBeDefined();
    expect(pod.spec!.automountServiceAccountToken).toBe(false);
    expect(only('v1/ServiceAccount').automountServiceAccountToken).toBe(false);
    expect(pod.spec!.serviceAccountName).toBe(only('v1/ServiceAccount').metadata!.name);
  });

  it('gives the kubelet time for the preStop pause, SHUTDOWN_GRACE_MS and closing before its SIGKILL', () => {
    const graceMs = loadConfig(settings).resilience.shutdownGraceMs;
    const pauseMs = (container.lifecycle?.preStop?.sleep?.seconds ?? 0) * 1000;
    expect(pauseMs).toBeGreaterThan(0);
    expect(pod.spec!.terminationGracePeriodSeconds! * 1000).toBeGreaterThanOrEqual(pauseMs + graceMs + 5_000);
  });

  it('requests resources from the benchmark: memory above its peak RSS, a limit above the heap cap the image sets', () => {
    const { requests, limits } = container.resources!;
    expect(requests?.cpu).toBeDefined();
    const results = readFileSync(new URL('bench/RESULTS.md', root), 'utf8');
    const peakRssMb = Number(/as shipped, peak RSS [^|]*\| (\d+) MB/.exec(results)?.[1]);
    expect(peakRssMb).toBeGreaterThan(0);
    expect(bytes(requests?.memory)).toBeGreaterThanOrEqual(peakRssMb * 2 ** 20);
    const dockerfile = readFileSync(new URL('Dockerfile', root), 'utf8');
    const heapCapMb = Number(/--max-old-space-size=(\d+)/.exec(dockerfile.slice(dockerfile.indexOf('AS runtime')))?.[1]);
    expect(heapCapMb).toBeGreaterThan(0);
    // The heap may grow to its cap; what lives outside it (code, buffers, sockets) needs room above.
    expect(bytes(limits?.memory)).toBeGreaterThanOrEqual((heapCapMb + 256) * 2 ** 20);
  });

  it('selects the Deployment’s pods with the Service, the PodDisruptionBudget and the spread constraints', () => {
    expect(selects(deployment.spec!.selector.matchLabels, podLabels)).toBe(true);
    expect(selects(service.spec!.selector, podLabels)).toBe(true);
    expect(selects(pdb.spec!.selector?.matchLabels, podLabels)).toBe(true);
    for (const constraint of pod.spec!.topologySpreadConstraints ?? [])
      expect(selects(constraint.labelSelector?.matchLabels, podLabels)).toBe(true);
    expect(pod.spec!.topologySpreadConstraints?.map((c) => c.topologyKey)).toContain('kubernetes.io/hostname');
    expect(service.spec!.ports?.map((port) => containerPort(port.targetPort))).toEqual([Number(settings.PORT)]);
  });

  it('scales from two pods on CPU, rolls out without losing capacity, and lets a drain take one pod at a time', () => {
    expect(hpa.spec.scaleTargetRef).toMatchObject({ apiVersion: 'apps/v1', kind: 'Deployment', name: deployment.metadata!.name });
    expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
    expect(hpa.spec.maxReplicas).toBeGreaterThan(hpa.spec.minReplicas!);
    expect(hpa.spec.metrics?.map((metric) => metric.resource?.name)).toEqual(['cpu']);
    expect(hpa.spec.behavior?.scaleDown?.stabilizationWindowSeconds).toBeGreaterThan(0);
    // The autoscaler owns the count: a `replicas` here would be set back on every apply.
    expect(deployment.spec!.replicas).toBeUndefined();
    expect(deployment.spec!.strategy).toMatchObject({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0 } });
    expect(pdb.spec!.maxUnavailable).toBe(1);
    expect(pdb.spec!.minAvailable).toBeUndefined();
  });

  it('gives the gateway only settings its config schema reads, and a configuration that loads for production', () => {
    expect(container.envFrom?.map((from) => from.configMapRef?.name ?? from.secretRef?.name)).toEqual([
      configMap.metadata!.name,
      secret.metadata!.name,
    ]);
    const named = [...Object.keys(configMap.data!), ...Object.keys(secret.stringData!), ...(container.env ?? []).map((env) => env.name)];
    expect(named.filter((name) => !CONFIG_VARIABLES.includes(name))).toEqual([]);
    const config = loadConfig(settings);
    expect(config.limits).toMatchObject({ production: true, introspection: false, graphiql: false });
    expect(config.auth.mode).toBe('service');
    expect(config.upstream.bank?.credentials).toBeDefined();
    expect(config.events.redis).toEqual({ url: settings.REDIS_URL });
    expect(config.webhooks).toMatchObject({ apiKey: settings.WEBHOOK_API_KEY, signingSecret: settings.WEBHOOK_SIGNING_SECRET });
    expect(config.metrics.token).toBe(settings.METRICS_TOKEN);
  });

  it('keeps in the Secret the settings the production checklist calls secrets, each a marked placeholder', () => {
    const operations = readFileSync(new URL('docs/operations.md', root), 'utf8');
    const listed = /Put every secret \(([^)]*)\)/.exec(operations)?.[1];
    const secrets = [...(listed ?? '').matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((match) => match[1]!);
    expect(secrets.length).toBeGreaterThan(0);
    expect(Object.keys(secret.stringData!).filter((name) => !secrets.includes(name))).toEqual([]);
    // A secret left out must be one this configuration cannot take (a Sentinel's password beside REDIS_URL).
    const takes = (name: string) => {
      try {
        loadConfig({ ...settings, [name]: 'REPLACE-ME-value' });
        return true;
      } catch {
        return false;
      }
    };
    expect(secrets.filter((name) => !(name in secret.stringData!) && takes(name))).toEqual([]);
    expect(Object.keys(configMap.data!).filter((name) => secrets.includes(name))).toEqual([]);
    for (const value of Object.values(secret.stringData!)) expect(value).toMatch(/^REPLACE-ME-/);
  });
});
