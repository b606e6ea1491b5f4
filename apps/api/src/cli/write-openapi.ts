/** `npm run openapi --workspace apps/api`: writes apps/api/openapi.json from the code (part of `npm run sdk:generate`). */
import * as fs from "node:fs";

import { OPENAPI_FILE, buildOpenApiDocument, openApiText } from "../openapi/document-file";

// Nest logs its start-up; the file written is all this reports.
process.env.LOG_LEVEL ??= "silent";

buildOpenApiDocument()
  .then((document) => {
    fs.writeFileSync(OPENAPI_FILE, openApiText(document));
    console.log(`wrote ${OPENAPI_FILE}`);
  })
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
