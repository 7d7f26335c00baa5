import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import type { Bindings, ChildLoggerOptions, Level, LevelWithSilentOrString, Logger } from 'pino';

/**
 * A request's logger: pino's child with the request's id, made the first time it is used. Most
 * requests write no line but the access line, which is built from `root` and `bindings` without
 * a child (http/access-log.ts); making the child for every request was 2.5 % of the portal's
 * floor under `perf` (docs/performance.md).
 */
export class RequestLogger implements FastifyBaseLogger {
  #child: Logger | undefined;

  constructor(
    readonly root: Logger,
    readonly bindings: Bindings,
  ) {}

  /** pino's child, made now if it was not. */
  #made(): Logger {
    this.#child ??= this.root.child(this.bindings);
    return this.#child;
  }

  /** A line at `level`: nothing is made while the level is off, where pino writes nothing. */
  #write(level: Level, args: unknown[]): void {
    if (!this.isLevelEnabled(level)) return;
    const logger = this.#made();
    (logger[level] as (...args: unknown[]) => void).apply(logger, args);
  }

  isLevelEnabled(level: Level): boolean {
    return (this.#child ?? this.root).isLevelEnabled(level);
  }

  get level(): LevelWithSilentOrString {
    return (this.#child ?? this.root).level;
  }

  set level(level: LevelWithSilentOrString) {
    this.#made().level = level;
  }

  fatal(...args: unknown[]): void {
    this.#write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.#write('error', args);
  }
  warn(...args: unknown[]): void {
    this.#write('warn', args);
  }
  info(...args: unknown[]): void {
    this.#write('info', args);
  }
  debug(...args: unknown[]): void {
    this.#write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.#write('trace', args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#made().child(bindings, options);
  }
}

/** Whether `logger` is pino's (an app built with `logger: false` has Fastify's null logger). */
const isPino = (logger: FastifyBaseLogger): logger is Logger =>
  typeof (logger as Partial<Logger>).isLevelEnabled === 'function';

/**
 * Fastify's `childLoggerFactory`: a `RequestLogger` for each request; the logger's own child
 * when it is not pino's, or when a route sets its own level or serializers.
 */
export const requestLogger: NonNullable<FastifyServerOptions['childLoggerFactory']> = (
  logger,
  bindings,
  options,
) =>
  isPino(logger) && !options.level && !options.serializers
    ? new RequestLogger(logger, bindings)
    : logger.child(bindings, options);
