/**
 * A TypeDoc plugin (typedoc.json) that keeps zod's types from swamping docs/api:
 *
 * - a function or method whose return type is written out is documented with that type as
 *   written, e.g. `Promise<OperationAnswer<'getInvoice'>>`. TypeDoc otherwise takes the type
 *   the checker resolved, which for a zod `z.output<…>` is the whole object spelled out inline
 *   (pages of it per method) with none of the schema's names;
 * - a zod schema's type is shown by its name alone (`ZodMiniObject`), not with the shape of
 *   every field as type arguments: the inferred type alias beside it (`Invoice` for
 *   `InvoiceSchema`) is where the fields are documented;
 * - which properties must be documented (typedoc.json leaves `Property` out of
 *   `requiredToBeDocumented` and this file checks it): every property of an interface, a class
 *   or a type alias's object type. A constant's members are its data (the rows of
 *   `OPERATIONS`, each an `OperationRow` documented there; the values of `MOCK_DEFAULTS`,
 *   documented on the options they default), described by the constant's own comment;
 * - a class member typed by a mapped type as a function of a labelled tuple (the methods
 *   `MerchantClient` makes from the rows of `OPERATIONS`, src/server/client/operation-methods.ts)
 *   is documented as the method it is: `getInvoice(id, options?)`, its return type with the
 *   operation's name for the mapped type's key (`OperationAnswer<"getInvoice">`), its comment the
 *   row's.
 */
import {
  Converter,
  LiteralType,
  NamedTupleMember,
  ParameterReflection,
  ReferenceType,
  ReflectionFlag,
  ReflectionKind,
  ReflectionType,
  TupleType,
  Type,
} from 'typedoc';

/** The object types spelled out inside `type`: their reflections go with it. */
const inlineDeclarations = (type, found = []) => {
  if (type instanceof ReflectionType) {
    found.push(type.declaration);
    return found;
  }
  for (const value of Object.values(type)) {
    for (const item of Array.isArray(value) ? value : [value]) if (item instanceof Type) inlineDeclarations(item, found);
  }
  return found;
};

/** Drops the type arguments of every zod type inside `type`; returns the reflections they held. */
const simplifyZod = (type, found = []) => {
  if (type instanceof ReferenceType && type.package === 'zod' && type.typeArguments) {
    for (const argument of type.typeArguments) inlineDeclarations(argument, found);
    type.typeArguments = undefined;
    return found;
  }
  if (type instanceof ReflectionType) return found;
  for (const value of Object.values(type)) {
    for (const item of Array.isArray(value) ? value : [value]) if (item instanceof Type) simplifyZod(item, found);
  }
  return found;
};

/** @param {import('typedoc').Application} app */
export const load = (app) => {
  app.converter.on(Converter.EVENT_CREATE_SIGNATURE, (context, reflection, node) => {
    const declared = node && 'type' in node ? node.type : undefined;
    if (!declared || !reflection.type) return;
    const resolved = reflection.type;
    reflection.type = context.converter.convertType(context.withScope(reflection), declared);
    for (const declaration of inlineDeclarations(resolved)) context.project.removeReflection(declaration);
  });
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const property of context.project.getReflectionsByKind(ReflectionKind.Property)) asMethod(context.project, property);
  });
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    const project = context.project;
    const dropped = Object.values(project.reflections).flatMap((reflection) =>
      'type' in reflection && reflection.type instanceof Type ? simplifyZod(reflection.type) : [],
    );
    for (const declaration of dropped) if (project.getReflectionById(declaration.id)) project.removeReflection(declaration);
  });
  app.converter.on(Converter.EVENT_RESOLVE_END, (context) => {
    for (const property of context.project.getReflectionsByKind(ReflectionKind.Property)) {
      if (property.hasComment() || !mustBeDocumented(property)) continue;
      app.logger.validationWarning(`${property.getFriendlyFullName()} (Property) does not have any documentation`);
    }
  });
};

/** See the header: where a property sits decides whether it needs its own comment. */
const mustBeDocumented = (property) => {
  for (let up = property.parent; up; up = up.parent) if (up.kindOf(ReflectionKind.Parameter)) return false;
  const parent = property.parent;
  if (!parent) return false;
  if (parent.kindOf(ReflectionKind.Interface | ReflectionKind.Class)) return true;
  if (!parent.kindOf(ReflectionKind.TypeLiteral)) return false;
  return Boolean(parent.parent?.kindOf(ReflectionKind.TypeAlias));
};

/** A class's property `name: (...args: [a: A, b?: B]) => R` as the method `name(a, b?): R` (see the header). */
const asMethod = (project, property) => {
  if (!property.parent?.kindOf(ReflectionKind.Class) || !(property.type instanceof ReflectionType)) return;
  const literal = property.type.declaration;
  const [signature, ...others] = literal.signatures ?? [];
  const [rest, ...more] = signature?.parameters ?? [];
  if (!signature || others.length || more.length || !rest?.flags.isRest || !(rest.type instanceof TupleType)) return;
  if (!rest.type.elements.every((element) => element instanceof NamedTupleMember)) return;
  signature.parameters = rest.type.elements.map((member) => {
    const parameter = new ParameterReflection(member.name, ReflectionKind.Parameter, signature);
    parameter.type = member.element;
    if (member.isOptional) parameter.setFlag(ReflectionFlag.Optional, true);
    project.registerReflection(parameter, undefined, undefined);
    return parameter;
  });
  project.removeReflection(rest);
  // The mapped type's key (`Name`) is this method's name.
  if (signature.type) signature.type = keyed(signature.type, property.name);
  signature.comment = property.comment;
  signature.inheritedFrom = property.inheritedFrom;
  signature.parent = property;
  signature.name = property.name;
  literal.signatures = [];
  project.removeReflection(literal);
  property.kind = ReflectionKind.Method;
  property.setFlag(ReflectionFlag.Readonly, false);
  property.comment = undefined;
  property.type = undefined;
  property.signatures = [signature];
};

/** `type` with every reference to a type parameter replaced by the literal `name`. */
const keyed = (type, name) => {
  if (type instanceof ReferenceType && type.refersToTypeParameter) return new LiteralType(name);
  for (const [key, value] of Object.entries(type)) {
    if (value instanceof Type) type[key] = keyed(value, name);
    else if (Array.isArray(value)) type[key] = value.map((item) => (item instanceof Type ? keyed(item, name) : item));
  }
  return type;
};
