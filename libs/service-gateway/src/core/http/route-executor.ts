import { type ArgumentMetadata, ForbiddenException, type PipeTransform, type Type } from '@nestjs/common';
import { CUSTOM_ROUTE_ARGS_METADATA, HEADERS_METADATA, HTTP_CODE_METADATA, PARAMTYPES_METADATA, RESPONSE_PASSTHROUGH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ModulesContainer } from '@nestjs/core';
import { FORBIDDEN_MESSAGE } from '@nestjs/core/guards/constants';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { type FastifyInstance, type FastifyReply, type FastifyRequest, type RouteOptions } from 'fastify';
import { isObservable, lastValueFrom } from 'rxjs';
import { EdgeGuard } from '../auth/edge.guard';
import { HttpErrorFilter } from './http-error.filter';
import { type ControllerRoute, controllerRoutes, UnsupportedRouteError } from './route-table';
import { HubValidationPipe } from './validation.pipe';

type Extract = (req: FastifyRequest, reply: FastifyReply, context: ExecutionContextHost | undefined) => unknown;

interface ParamPlan {
  index: number;
  extract: Extract;
  /** What the pipe is told, for body, query, path and custom parameters; none for the others. */
  pipe?: ArgumentMetadata;
}

interface RouteArg {
  index: number;
  data?: unknown;
  pipes?: unknown[];
  factory?: (data: unknown, context: ExecutionContextHost) => unknown;
}

/** A key picks an own property of an array or primitive body, any property of an object (Nest's rule). */
function bodyProperty(body: unknown, key: string): unknown {
  if (typeof body === 'object' && body !== null && !Array.isArray(body) && !ArrayBuffer.isView(body)) return (body as Record<string, unknown>)[key];
  return body !== null && body !== undefined && Object.prototype.hasOwnProperty.call(Object(body), key) ? (body as Record<string, unknown>)[key] : undefined;
}

/** How each of Nest's parameter decorators reads the request (Nest's RouteParamsFactory, for Fastify). */
function extractorFor(type: number, data: unknown, where: string): Extract {
  const key = typeof data === 'string' ? data : undefined;
  switch (type) {
    case RouteParamtypes.REQUEST: return (req) => req;
    case RouteParamtypes.RESPONSE: return (_req, reply) => reply;
    case RouteParamtypes.BODY: return key ? (req) => (req.body ? bodyProperty(req.body, key) : req.body) : (req) => req.body;
    case RouteParamtypes.PARAM: return key ? (req) => (req.params as Record<string, unknown>)[key] : (req) => req.params;
    case RouteParamtypes.QUERY: return key ? (req) => (req.query as Record<string, unknown>)[key] : (req) => req.query;
    case RouteParamtypes.HEADERS: return key ? (req) => req.headers[key.toLowerCase()] : (req) => req.headers;
    case RouteParamtypes.IP: return (req) => req.ip;
    default: throw new UnsupportedRouteError(where, `a parameter decorator of type ${RouteParamtypes[type] ?? type}`);
  }
}

const PIPE_TYPES: Partial<Record<number, 'body' | 'query' | 'param'>> = {
  [RouteParamtypes.BODY]: 'body', [RouteParamtypes.QUERY]: 'query', [RouteParamtypes.PARAM]: 'param',
};

/** The parameters in the order Nest resolves them (the order their decorators ran). */
function paramPlans(route: ControllerRoute, where: string): { plans: ParamPlan[]; argc: number; usesResponse: boolean; usesContext: boolean } {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, route.controller, route.methodName) ?? {}) as Record<string, RouteArg>;
  const metatypes = (Reflect.getMetadata(PARAMTYPES_METADATA, route.controller.prototype, route.methodName) ?? []) as Array<Type | undefined>;
  const plans: ParamPlan[] = [];
  let argc = 0;
  let usesResponse = false;
  let usesContext = false;
  for (const [key, arg] of Object.entries(args)) {
    argc = Math.max(argc, arg.index + 1);
    if (arg.pipes && arg.pipes.length > 0) throw new UnsupportedRouteError(where, 'a pipe on a parameter');
    const metatype = metatypes[arg.index];
    if (key.includes(CUSTOM_ROUTE_ARGS_METADATA)) {
      const factory = arg.factory;
      if (typeof factory !== 'function') throw new UnsupportedRouteError(where, 'a custom parameter decorator without a factory');
      usesContext = true;
      plans.push({ index: arg.index, extract: (_req, _reply, context) => factory(arg.data, context as ExecutionContextHost), pipe: { metatype, type: 'custom', data: arg.data as string | undefined } });
      continue;
    }
    const type = Number(key.split(':')[0]);
    if (type === RouteParamtypes.RESPONSE) usesResponse = true;
    const pipeType = PIPE_TYPES[type];
    plans.push({ index: arg.index, extract: extractorFor(type, arg.data, where), pipe: pipeType ? { metatype, type: pipeType, data: arg.data as string | undefined } : undefined });
  }
  return { plans, argc, usesResponse, usesContext };
}

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';

function hasEmptyParam(params: unknown): boolean {
  const values = params as Record<string, unknown>;
  for (const name in values) if (values[name] === '' && name !== '*') return true;
  return false;
}

interface Edge {
  guard: EdgeGuard;
  pipe: PipeTransform;
  filter: HttpErrorFilter;
  send: (reply: FastifyReply, body: unknown) => unknown;
}

/**
 * Runs a pipeline's parameters as Nest does: every pipe starts, a synchronous failure wins (in
 * decorator order), then the first asynchronous one (body and query validation) to fail.
 */
async function resolveArgs(plans: ParamPlan[], argc: number, edge: Edge, req: FastifyRequest, reply: FastifyReply, context: ExecutionContextHost | undefined): Promise<unknown[]> {
  const args: unknown[] = new Array(argc).fill(undefined);
  let pending: Array<Promise<void>> | undefined;
  let failure: { error: unknown } | undefined;
  for (const plan of plans) {
    try {
      const value = plan.extract(req, reply, context);
      // Only a pipe's answer may be a promise: the reply itself is a thenable (of the response's end).
      const piped = plan.pipe ? edge.pipe.transform(value, plan.pipe) : value;
      if (plan.pipe && isThenable(piped)) (pending ??= []).push(Promise.resolve(piped).then((v) => void (args[plan.index] = v)));
      else args[plan.index] = piped;
    } catch (error) {
      failure ??= { error };
    }
  }
  if (failure) {
    if (pending) void Promise.allSettled(pending);
    throw failure.error;
  }
  if (pending) await Promise.all(pending);
  return args;
}

/** The Fastify handler of one controller route: what Nest's router does per request, for our edge only. */
function executorFor(route: ControllerRoute, edge: Edge): (req: FastifyRequest, reply: FastifyReply) => Promise<void> {
  const where = `${route.controller.name}.${route.methodName}`;
  const { plans, argc, usesResponse, usesContext } = paramPlans(route, where);
  const rules = edge.guard.rulesFor(route.handler, route.controller);
  const status = (Reflect.getMetadata(HTTP_CODE_METADATA, route.handler) as number | undefined) ?? (route.method === 'POST' ? 201 : 200);
  const headers = (Reflect.getMetadata(HEADERS_METADATA, route.handler) ?? []) as Array<{ name: string; value: string | (() => string) }>;
  const passthrough = Reflect.getMetadata(RESPONSE_PASSTHROUGH_METADATA, route.controller, route.methodName) === true;
  const sendsItself = usesResponse && !passthrough;
  const checkParams = route.path.includes(':');
  const { instance, handler, controller } = route;

  return async (req, reply) => {
    // Nest's Fastify adapter sends a request with an empty path parameter to the not-found handler.
    if (checkParams && hasEmptyParam(req.params)) return void reply.callNotFound();
    try {
      const admitted = edge.guard.admit(req, reply, rules);
      if (admitted !== true && (admitted === false || !(await admitted))) throw new ForbiddenException(FORBIDDEN_MESSAGE);
      void reply.code(status);
      for (const { name, value } of headers) void reply.header(name, typeof value === 'function' ? value() : value);
      const context = usesContext ? new ExecutionContextHost([req, reply, undefined], controller, handler) : undefined;
      const args = plans.length > 0 ? await resolveArgs(plans, argc, edge, req, reply, context) : [];
      let result = handler.apply(instance, args);
      if (isThenable(result)) result = await result;
      if (isObservable(result)) result = await lastValueFrom(result);
      // The status set above stays unless the handler changed it (a passthrough @Res may: a 304).
      // Sends synchronously (Fastify serializes and writes at once); a throw is caught below.
      if (!sendsItself) edge.send(reply, result);
    } catch (error) {
      edge.filter.catch(error, new ExecutionContextHost([req, reply, undefined]));
    }
  };
}

/**
 * Serves every controller route of the gateway without Nest's per-request router pipeline:
 * the same decorators, read once at start (the edge guard, the validation pipe, parameter
 * decorators, @HttpCode, @Header, @Res, the error filter), run as one async function per route.
 * Nest's pipeline is general (any guards, interceptors, pipes and filters, each awaited, an
 * execution context per custom parameter); for our edge it was most of the framework's cost per
 * request (decision 0300). Anything else a route asks for (@UseGuards, @UseInterceptors…) stops the
 * start with the route's name, rather than being skipped. Call before app.init().
 */
export function installRouteExecutor(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  const adapter = app.getHttpAdapter();
  const edge: Edge = {
    guard: app.get(EdgeGuard),
    pipe: app.get(HubValidationPipe),
    filter: app.get(HttpErrorFilter),
    send: (reply, body) => adapter.reply(reply, body),
  };
  const routes = new Map<string, { route: ControllerRoute; run?: ReturnType<typeof executorFor> }>();
  for (const route of controllerRoutes(app.get(ModulesContainer))) routes.set(`${route.method} ${route.path}`, { route });
  fastify.addHook('onRoute', (options: RouteOptions) => {
    if (typeof options.method !== 'string') return;
    // Fastify adds a HEAD route beside each GET one, from the options Nest gave.
    const entry = routes.get(`${options.method === 'HEAD' ? 'GET' : options.method} ${options.url}`);
    if (!entry) return;
    entry.run ??= executorFor(entry.route, edge);
    options.handler = entry.run;
  });
  fastify.addHook('onReady', (done) => {
    const missed = [...routes.entries()].filter(([, entry]) => !entry.run).map(([key]) => key);
    done(missed.length > 0 ? new Error(`The route executor found no Fastify route for ${missed.join(', ')}`) : undefined);
  });
}
