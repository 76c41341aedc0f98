# syntax=docker/dockerfile:1.7
# Multi-stage build of the gateway. Node 24 runs the TypeScript sources directly (type stripping),
# so there is no compile step: the check stage only proves the sources typecheck, and the runtime
# stage holds production dependencies and sources, owned by root and read-only to the process.
#
#   docker build -t banking-gateway .
#   docker run --read-only --tmpfs /tmp -p 4000:4000 --env-file gateway.env banking-gateway
#
# The same image runs the sandbox on its own: `node sandbox/src/main.ts` (see compose.yaml).

# An exact release, the one the project's `node` devDependency pins: rebuilds get the same Node.
ARG NODE_VERSION=24.21.0

FROM node:${NODE_VERSION}-slim AS deps
WORKDIR /app
# The manifests of the root and of the workspace packages the gateway imports: the sandbox
# (sandbox/, @banking-gateway/sandbox) and the settings toolkit both it and the sandbox are written
# with (packages/settings/, @banking-gateway/settings); the example web app's workspace is left out.
COPY package.json package-lock.json ./
COPY packages/settings/package.json ./packages/settings/
COPY sandbox/package.json ./sandbox/
# Production dependencies only; the `node` devDependency (a Node binary for npm scripts) is not needed
# in an image that already is Node 24.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund --workspace=@banking-gateway/settings --workspace=@banking-gateway/sandbox --include-workspace-root

FROM node:${NODE_VERSION}-slim AS check
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/settings/package.json ./packages/settings/
COPY sandbox/package.json ./sandbox/
# The supergraph example's workspace too: test/protocol/federation.test.ts composes its subgraphs.
COPY examples/supergraph/package.json ./examples/supergraph/
RUN npm ci --ignore-scripts --no-audit --no-fund --workspace=@banking-gateway/settings --workspace=@banking-gateway/sandbox --workspace=@banking-gateway/example-supergraph --include-workspace-root
COPY examples/supergraph ./examples/supergraph
COPY tsconfig.json codegen.ts vitest.config.ts ./
COPY src ./src
COPY packages ./packages
COPY sandbox ./sandbox
COPY schema ./schema
COPY test ./test
COPY bench ./bench
# The image's own Node 24 runs tsc: the `node` devDependency is for machines with an older Node.
RUN node node_modules/typescript/bin/tsc --noEmit

FROM node:${NODE_VERSION}-slim AS runtime
# A production image: introspection and GraphiQL are off unless INTROSPECTION/GRAPHIQL turn them on
# (README, "Docker"); with no UPSTREAM_BASE_URL it still runs the embedded sandbox.
# The heap is sized for a container, as `npm start` sizes it (the same flags; a test holds them
# equal): V8 would otherwise size it for the host's memory and let the process grow to match. Set
# NODE_OPTIONS to override.
ENV NODE_ENV=production \
    PORT=4000 \
    HOST=0.0.0.0 \
    NODE_OPTIONS="--max-old-space-size=2048 --max-semi-space-size=16"
WORKDIR /app
# Root owns the application files; the process runs as `node` and cannot change them, so the
# container runs with a read-only root filesystem (nothing is written at run time: logs go to
# stdout, caches live in memory or Redis).
COPY --from=deps /app/node_modules ./node_modules
COPY package.json ./
COPY src ./src
COPY packages/settings/package.json ./packages/settings/
COPY packages/settings/src ./packages/settings/src
COPY sandbox/package.json ./sandbox/
COPY sandbox/src ./sandbox/src
# The trusted-documents manifest (TRUSTED_DOCUMENTS=true) and the printed schema.
COPY schema ./schema
# The check stage must have passed for the image to build.
COPY --from=check /app/tsconfig.json /tmp/typechecked
USER node
EXPOSE 4000
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||4000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM starts the graceful stop: /readyz turns 503, in-flight operations get SHUTDOWN_GRACE_MS.
STOPSIGNAL SIGTERM
CMD ["node", "src/main.ts"]
