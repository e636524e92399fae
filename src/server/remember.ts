/**
 * The bounded memories of the server kit (signatures, imported keys, shared answers, a
 * terminal or receipt policy per invoice, the memory store's maps) are insertion-ordered maps
 * that forget their oldest entry past a limit.
 */

/** Sets `key` as the newest entry of `map`, forgetting the oldest past `limit`. */
export const remember = <K, V>(map: Map<K, V>, key: K, value: V, limit: number): void => {
  map.delete(key);
  map.set(key, value);
  if (map.size > limit) map.delete(map.keys().next().value as K);
};
