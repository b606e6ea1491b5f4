#!/bin/sh
# Runs in the nginx image's entrypoint before nginx starts: writes the security headers with connect-src set to the
# origins the pages fetch from, read from the mounted config.json (apiUrl and each chain's rpcUrl, as
# apps/web/server/security-headers.ts's connectSources does). Refuses to start without a config.json.
set -eu
CONFIG="${WEB_CONFIG_FILE:-/usr/share/nginx/html/config.json}"
TEMPLATE="${WEB_HEADERS_TEMPLATE:-/usr/share/raffle-web/security-headers.conf.template}"
OUT="${WEB_HEADERS_FILE:-/etc/nginx/raffle/security-headers.conf}"

if [ ! -f "$CONFIG" ] || [ ! -s "$CONFIG" ]; then
  echo "raffle web: no $CONFIG: mount the deployment's config.json (apiUrl, chains) there" >&2
  exit 1
fi
# scheme://host[:port] of every "apiUrl" and "rpcUrl" value, without any user:password@, once each.
origins=$(grep -oE '"(apiUrl|rpcUrl)"[[:space:]]*:[[:space:]]*"[A-Za-z][A-Za-z0-9+.-]*://[^/"?#]+' "$CONFIG" |
  sed -E 's/^.*"//; s#://[^@]*@#://#' | awk '!seen[$0]++' | tr '\n' ' ' | sed 's/ $//')
if [ -z "$origins" ]; then
  echo "raffle web: $CONFIG names no absolute apiUrl or rpcUrl: the pages could reach neither the API nor a chain" >&2
  exit 1
fi
sed "s#__CONNECT_SOURCES__#$origins#g" "$TEMPLATE" >"$OUT"
