import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

// biome-ignore lint/suspicious/noExplicitAny: React's own bound for what lazy() takes.
type AnyComponent = ComponentType<any>;

/**
 * A component fetched with its module the first time it renders (under a Suspense boundary), for a page
 * that is not part of the first load. Named exports, as everywhere in the app.
 */
export function lazyNamed<Module extends Record<Name, AnyComponent>, Name extends keyof Module>(
  load: () => Promise<Module>,
  name: Name,
): LazyExoticComponent<Module[Name]> {
  return lazy(() => load().then((module) => ({ default: module[name] })));
}
