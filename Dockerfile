# One image for every service of the platform; each compose service picks its target.
# Build context: the repository root.
FROM node:20-bookworm-slim AS build
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
COPY apps/api/package.json apps/api/
COPY apps/merchant-worker/package.json apps/merchant-worker/
COPY tools/package.json tools/
RUN npm ci --no-audit --no-fund
COPY . .
# Compiles the contracts (with the TypeChain bindings the TypeScript code imports), then the apps to JavaScript in
# dist/: the services run with plain node, not ts-node.
RUN npm run build

FROM build AS chain
WORKDIR /app/contracts
EXPOSE 8545
CMD ["/app/node_modules/.bin/hardhat", "node", "--hostname", "0.0.0.0", "--port", "8545"]

FROM build AS deployer
WORKDIR /app/contracts
CMD ["/app/node_modules/.bin/hardhat", "run", "--no-compile", "deploy/platform.ts"]

FROM build AS api
WORKDIR /app
ENV NODE_ENV=production
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
CMD ["node", "dist/apps/api/src/main.js"]

FROM build AS merchant-worker
WORKDIR /app
ENV NODE_ENV=production
CMD ["node", "dist/apps/merchant-worker/src/main.js"]
