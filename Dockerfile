# One Dockerfile for every service of the platform; each compose service picks its target. Build context: the
# repository root. Node 22 is a maintained LTS line (Node 20 left maintenance in April 2026).
ARG NODE_IMAGE=node:22-bookworm-slim

# ---- build: the whole workspace with its dev tools (Hardhat, TypeScript), the contracts compiled, dist/ built.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
ENV NX_DAEMON=false NX_NO_CLOUD=true NX_TUI=false
COPY package.json package-lock.json nx.json tsconfig.base.json ./
COPY contracts/package.json contracts/
COPY libs/chain/package.json libs/chain/
COPY libs/config/package.json libs/config/
COPY libs/db/package.json libs/db/
COPY libs/indexer/package.json libs/indexer/
COPY libs/sdk/package.json libs/sdk/
COPY libs/testing/package.json libs/testing/
COPY libs/test-stack/package.json libs/test-stack/
COPY apps/api/package.json apps/api/
COPY apps/api-e2e/package.json apps/api-e2e/
COPY apps/merchant-worker/package.json apps/merchant-worker/
COPY apps/web/package.json apps/web/
COPY tools/package.json tools/
RUN npm ci --no-audit --no-fund
COPY . .
# Compiles the contracts (with the TypeChain bindings the TypeScript code imports), then the apps to JavaScript in
# dist/: the services run with plain node, not ts-node.
RUN npm run build

# ---- dev chain and its one-shot deployer (local compose only): they need Hardhat, so they stay on the build stage.
FROM build AS chain
WORKDIR /app/contracts
EXPOSE 8545
CMD ["/app/node_modules/.bin/hardhat", "node", "--hostname", "0.0.0.0", "--port", "8545"]

FROM build AS deployer
WORKDIR /app/contracts
# `localhost` signs with the dev node's own accounts; RPC_URL points it at the chain service.
CMD ["/app/node_modules/.bin/hardhat", "platform", "deploy", "--network", "localhost"]

# ---- runtime: production dependencies and the compiled apps only, run as the image's unprivileged `node` user.
FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
COPY contracts/package.json contracts/
COPY libs/chain/package.json libs/chain/
COPY libs/config/package.json libs/config/
COPY libs/db/package.json libs/db/
COPY libs/indexer/package.json libs/indexer/
COPY libs/sdk/package.json libs/sdk/
COPY apps/api/package.json apps/api/
COPY apps/merchant-worker/package.json apps/merchant-worker/
COPY apps/web/package.json apps/web/
COPY tools/package.json tools/
# No install scripts: the native modules (keccak, secp256k1) load their bundled prebuilt binaries at run time.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
USER node

FROM runtime AS api
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
CMD ["node", "dist/apps/api/src/main.js"]

FROM runtime AS merchant-worker
CMD ["node", "dist/apps/merchant-worker/src/main.js"]
