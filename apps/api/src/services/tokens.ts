/** Injection tokens of the API's infrastructure. */
export const API_CONFIG = Symbol("API_CONFIG");
export const DATA_SOURCE = Symbol("DATA_SOURCE");
