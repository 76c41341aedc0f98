/**
 * Variables the gateway no longer reads, with what replaced them: set, they stop the start rather
 * than be ignored, since the operator meant them to do something.
 */

/**
 * JWT_ACCESS_CLAIMS let `scope` grant roles; its claims cannot be split into role and permission
 * claims on the operator's behalf.
 */
const RETIRED_VARIABLES: Record<string, string> = {
  JWT_ACCESS_CLAIMS:
    'name the claims that grant roles in JWT_ROLE_CLAIMS (default roles) and those that grant permissions in JWT_PERMISSION_CLAIMS (default scope,scp); a role named in a permission claim grants nothing unless JWT_PERMISSION_CLAIMS_GRANT_ROLES=true',
};

export function retiredVariableProblems(env: NodeJS.ProcessEnv): string[] {
  return Object.entries(RETIRED_VARIABLES)
    .filter(([name]) => env[name] !== undefined && env[name] !== '')
    .map(([name, instead]) => `${name} is no longer read: ${instead}`);
}
