import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { safeNextPath } from '../utils/next-path';

/**
 * The query value `name` when it is a path of this site to come back to (utils/next-path.ts),
 * else null. It is null in the render that adopts the prerendered page too (the build renders
 * the page without a query, and links must match that HTML), and known from the next render.
 */
export function useReturnPath(name: 'next' | 'redirect'): string | null {
  const [searchParams] = useSearchParams();
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted ? safeNextPath(searchParams.get(name)) : null;
}
