/**
 * A TypeDoc plugin (typedoc.json) that names each module of docs/api after the package entry it
 * documents (`merchant-checkout`, `define`, `cdn`, `jsx`, `vue`, …) rather than after its file
 * under src/ (`element`, `element/define`, `types/jsx`), so that docs/api/<entry>.md is the
 * reference of `merchant-checkout/<entry>`. scripts/gen-api-docs.ts lists the entries.
 */
import { Converter, ReflectionKind } from 'typedoc';

/** The module name TypeDoc derives from the file → the package entry's name. */
export const ENTRY_NAMES = {
  element: 'merchant-checkout',
  'element/define': 'define',
  'element/cdn': 'cdn',
  'types/jsx': 'jsx',
  'types/vue': 'vue',
  'server/node': 'server',
};

/** @param {import('typedoc').Application} app */
export const load = (app) => {
  app.converter.on(Converter.EVENT_CREATE_DECLARATION, (_context, reflection) => {
    if (reflection.kindOf(ReflectionKind.Module) && Object.hasOwn(ENTRY_NAMES, reflection.name)) {
      reflection.name = ENTRY_NAMES[reflection.name];
    }
  });
};
