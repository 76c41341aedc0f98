import type { Plugin } from 'graphql-yoga';
import { WEBHOOK_PATH, type WebhookIntake } from '../events/intake.ts';
import { route } from './route.ts';

/** POST /webhooks: the bank's event deliveries, to the intake (events/intake.ts), which refuses other methods itself. */
export const useWebhookRoute = (intake: WebhookIntake): Plugin => route(WEBHOOK_PATH, intake);
