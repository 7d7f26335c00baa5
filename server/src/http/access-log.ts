import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/**
 * One access line per request, written when it is answered: method, address, client, status
 * and time, under the request's id. Fastify's default writes a second line on arrival, which
 * doubled the logging cost of every call (docs/performance.md, Logging) and told an operator
 * nothing the answer's line does not, but for requests still running, which `LOG_LEVEL=debug`
 * shows.
 */
export class AccessLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (!this.isLogDisabled(request)) request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
