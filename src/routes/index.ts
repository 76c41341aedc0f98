import type { Plugin } from 'graphql-yoga';
import type { Registry } from 'prom-client';
import type { OriginCheck } from '../authentication/origins.ts';
import type { WebhookIntake } from '../events/intake.ts';
import { useLiveness } from './healthz.ts';
import { useMetricsRoute } from './metrics.ts';
import { usePreflightRefusal } from './preflight-refusal.ts';
import { useReadiness, type ReadinessRouteOptions } from './readyz.ts';
import { useRootRedirect } from './root-redirect.ts';
import { useWebhookRoute } from './webhooks.ts';

export interface GatewayRoutesOptions {
  readiness: ReadinessRouteOptions;
  metrics: { registry: Registry; token: string | undefined };
  webhookIntake: WebhookIntake;
  /** Whether a browser origin may call the gateway (ALLOWED_ORIGINS). */
  originAllowed: OriginCheck;
}

/**
 * The gateway's HTTP answers outside GraphQL, as Yoga plugins (YogaOptions.routes): each path its
 * own plugin, then the refusal of a preflight from an origin not allowed, which only the paths
 * of GraphQL (and unknown ones) reach.
 */
export function gatewayRoutes(options: GatewayRoutesOptions): Plugin[] {
  return [
    useLiveness(),
    useReadiness(options.readiness),
    useMetricsRoute(options.metrics.registry, options.metrics.token),
    useWebhookRoute(options.webhookIntake),
    useRootRedirect(),
    usePreflightRefusal(options.originAllowed),
  ];
}
