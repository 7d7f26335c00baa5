export * from './clinic.js';
export * from './constants.js';
export * from './dates.js';
export * from './messages.js';
export * from './money.js';
export * from './routes.js';
export * from './slots.js';
export * from './validation.js';
