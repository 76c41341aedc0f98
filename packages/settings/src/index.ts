/**
 * @banking-gateway/settings: settings from the environment, as zod schemas that carry their
 * variable, rule and meaning. The gateway's configuration (src/settings/index.ts) and the sandbox are both
 * written with it, so they read the environment, report problems and document themselves the same
 * way; it depends on neither. The sandbox's own group is at `@banking-gateway/settings/sandbox`.
 */

export { ConfigError, settingsReader, type SettingEntry, type SettingsSchema } from './reader.ts';
export {
  flag,
  flagOr,
  group,
  groupAs,
  httpUrl,
  int,
  list,
  oneOf,
  oneOfOr,
  setting,
  text,
  textOr,
  unsetIfEmpty,
  type GroupMeta,
  type GroupSettings,
  type SettingMeta,
} from './rules.ts';
