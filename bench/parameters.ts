/**
 * The fixed parameters of the measures, which the report states beside their figures (what a run
 * may tune is bench/settings.ts): the fair-share flood, the overhead probe, the intake flood, the live dashboard.
 */

/** Fair share: one client floods with dashboards at this concurrency, from FLOOD_ADDRESS, while another times its own from QUIET_ADDRESS. */
export const FLOOD_CONNECTIONS = 100;
/** How long the flood runs: a second to build up, then the other client's runs, with room to spare. */
export const FLOOD_SECONDS = 10;
export const FLOOD_ADDRESS = '127.0.0.1';
export const QUIET_ADDRESS = '127.0.0.2';

/** The overhead probe: a query of one upstream call (GET balance), set against that call made directly. */
export const ONE_CALL_QUERY = '{ balances { currency available { amount } } }';
/** Rounds of each level of the probe: the paths take turns, their order rotating from round to round. */
export const OVERHEAD_ROUNDS = 3;

/** The webhook intake's flood: signed deliveries posted at once, wave after wave. */
export const INTAKE_CONCURRENCY = 64;

/** What every live dashboard holds open. */
export const LIVE_DASHBOARD_QUERY = 'query Dashboard @live { balances { currency available { amount } } }';
