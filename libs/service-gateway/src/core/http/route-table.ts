import { RequestMethod, type Type } from '@nestjs/common';
import {
  EXCEPTION_FILTERS_METADATA, GUARDS_METADATA, HOST_METADATA, INTERCEPTORS_METADATA, METHOD_METADATA, PATH_METADATA, PIPES_METADATA,
  REDIRECT_METADATA, RENDER_METADATA, SSE_METADATA, VERSION_METADATA,
} from '@nestjs/common/constants';
import { MetadataScanner, type ModulesContainer } from '@nestjs/core';

/** One route of a controller, as Nest registers it with Fastify. */
export interface ControllerRoute {
  /** 'GET', 'POST'… */
  method: string;
  /** The full path Fastify is given, e.g. '/api/organizations/:name/members'. */
  path: string;
  controller: Type;
  instance: object;
  methodName: string;
  handler: (...args: unknown[]) => unknown;
}

/** Decorators whose work Nest's router pipeline does and the route executor does not: refused at start. */
const UNSUPPORTED_ON_HANDLER: ReadonlyArray<[string, string]> = [
  [GUARDS_METADATA, '@UseGuards'], [INTERCEPTORS_METADATA, '@UseInterceptors'], [PIPES_METADATA, '@UsePipes'],
  [EXCEPTION_FILTERS_METADATA, '@UseFilters'], [REDIRECT_METADATA, '@Redirect'], [RENDER_METADATA, '@Render'],
  [SSE_METADATA, '@Sse'], [VERSION_METADATA, '@Version'],
];
const UNSUPPORTED_ON_CLASS: ReadonlyArray<[string, string]> = [
  [GUARDS_METADATA, '@UseGuards'], [INTERCEPTORS_METADATA, '@UseInterceptors'], [PIPES_METADATA, '@UsePipes'],
  [EXCEPTION_FILTERS_METADATA, '@UseFilters'], [VERSION_METADATA, '@Version'], [HOST_METADATA, '@Controller({ host })'],
];

export class UnsupportedRouteError extends Error {
  constructor(where: string, what: string) {
    super(`${where} uses ${what}, which the gateway's route executor does not run (libs/service-gateway/src/core/http/route-executor.ts)`);
  }
}

const asArray = (value: string | string[] | undefined): string[] => (value === undefined ? ['/'] : Array.isArray(value) ? value : [value]);
const leading = (path: string): string => (path.startsWith('/') ? path : `/${path}`);
const trailingOff = (path: string): string => (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path);

/** Nest's RoutePathFactory for an app without global prefix, versioning or RouterModule paths. */
export function joinRoutePath(controllerPath: string, methodPath: string): string {
  let path = '';
  for (const part of [controllerPath, methodPath]) if (part && part !== '/') path = trailingOff(path) + leading(part);
  return trailingOff(leading(path || '/'));
}

/** Every route of every controller in the app, read from the decorators Nest reads. */
export function controllerRoutes(modules: ModulesContainer): ControllerRoute[] {
  const scanner = new MetadataScanner();
  const routes: ControllerRoute[] = [];
  for (const module of modules.values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type | null;
      const instance = wrapper.instance as object | undefined;
      if (!controller || !instance) continue;
      if (!wrapper.isDependencyTreeStatic()) throw new UnsupportedRouteError(controller.name, 'a request-scoped dependency');
      for (const [key, what] of UNSUPPORTED_ON_CLASS) if (Reflect.getMetadata(key, controller) !== undefined) throw new UnsupportedRouteError(controller.name, what);
      const prototype = Object.getPrototypeOf(instance) as Record<string, unknown>;
      for (const methodName of scanner.getAllMethodNames(prototype)) {
        const handler = prototype[methodName] as ControllerRoute['handler'];
        const methodPaths = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
        if (methodPaths === undefined) continue;
        const where = `${controller.name}.${methodName}`;
        for (const [key, what] of UNSUPPORTED_ON_HANDLER) if (Reflect.getMetadata(key, handler) !== undefined) throw new UnsupportedRouteError(where, what);
        const requestMethod = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod;
        if (requestMethod === RequestMethod.ALL) throw new UnsupportedRouteError(where, '@All');
        const method = RequestMethod[requestMethod];
        for (const controllerPath of asArray(Reflect.getMetadata(PATH_METADATA, controller) as string | string[] | undefined)) {
          for (const methodPath of asArray(methodPaths)) {
            routes.push({ method, path: joinRoutePath(controllerPath, methodPath), controller, instance, methodName, handler });
          }
        }
      }
    }
  }
  return routes;
}
