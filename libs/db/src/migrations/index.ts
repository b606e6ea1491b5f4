import { InitialSchema1763769600000 } from "./1763769600000-initial-schema";

/** Every migration, oldest first. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const MIGRATIONS: Function[] = [InitialSchema1763769600000];
