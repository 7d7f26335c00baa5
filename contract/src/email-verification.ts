import { paths } from './routes.js';

/** The query parameter that marks a visit as the verification mail's link followed. */
export const VERIFICATION_PARAM = 'verification';

/**
 * Where the verification mail's link lands: the dashboard, marked so that it says the address is
 * verified. A link that fails (expired, tampered with) lands there too, with the identity
 * service's code added as `error` (e.g. `TOKEN_EXPIRED`, `INVALID_TOKEN`).
 */
export const VERIFICATION_LANDING = `${paths.dashboard}?${VERIFICATION_PARAM}=email`;
