import { parser } from '@prometheus-io/lezer-promql';

/** What a PromQL expression reads: each selector's metric and the labels it matches, and the grouping labels. */
export interface PromqlNames {
  selectors: { metric: string; labels: string[] }[];
  /** Labels of `by`, `without`, `on`, `ignoring`, `group_left`, `group_right`. */
  grouping: string[];
}

/**
 * The metric and label names of a PromQL expression, read with the Prometheus project's own
 * grammar (`@prometheus-io/lezer-promql`). An expression that does not parse throws.
 */
export function promqlNames(expr: string): PromqlNames {
  const tree = parser.parse(expr);
  const text = (from: number, to: number): string => expr.slice(from, to);
  const out: PromqlNames = { selectors: [], grouping: [] };
  const errors: string[] = [];
  tree.iterate({
    enter(node) {
      if (node.type.isError) errors.push(`at ${node.from}: "${text(node.from, Math.max(node.to, node.from + 10))}"`);
    },
  });
  if (errors.length > 0) throw new Error(`not PromQL: ${expr} (${errors.join('; ')})`);
  tree.iterate({
    enter(node) {
      if (node.name === 'VectorSelector') {
        const selector = node.node;
        const name = selector.getChild('Identifier');
        const labels: string[] = [];
        let metric = name ? text(name.from, name.to) : '';
        const matchers = selector.getChild('LabelMatchers');
        matchers?.toTree().iterate({
          enter(m) {
            if (m.name !== 'LabelName') return;
            const label = text(matchers.from + m.from, matchers.from + m.to);
            labels.push(label);
          },
        });
        // {__name__="x"} names the metric as a matcher.
        const byName = /__name__\s*=\s*"([^"]+)"/.exec(text(selector.from, selector.to));
        if (!metric && byName) metric = byName[1];
        out.selectors.push({ metric, labels: labels.filter((l) => l !== '__name__') });
        return false;
      }
      if (node.name === 'GroupingLabels') {
        const group = node.node;
        group.toTree().iterate({
          enter(m) {
            if (m.name === 'LabelName') out.grouping.push(text(group.from + m.from, group.from + m.to));
          },
        });
        return false;
      }
      return undefined;
    },
  });
  return out;
}

/** Label names each metric carries in Prometheus text exposition (sample lines, suffixes such as _bucket kept). */
export function exportedSeries(texts: string[]): Map<string, Set<string>> {
  const series = new Map<string, Set<string>>();
  for (const text of texts)
    for (const line of text.split('\n')) {
      const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s/.exec(line);
      if (!m) continue;
      const labels = series.get(m[1]) ?? new Set<string>();
      for (const l of (m[3] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="(?:[^"\\]|\\.)*"/g)) labels.add(l[1]);
      series.set(m[1], labels);
    }
  return series;
}

/** Labels Prometheus adds to every scraped series itself (its target's), not exported by an app. */
export const TARGET_LABELS = ['instance', 'job'];

/**
 * What an expression names that no scraped app exports: a metric with no sample, a matcher's
 * label that metric never carries, a grouping label none of the expression's metrics carries.
 */
export function unexportedNames(expr: string, series: Map<string, Set<string>>): string[] {
  const { selectors, grouping } = promqlNames(expr);
  const problems: string[] = [];
  const carried = new Set<string>(TARGET_LABELS);
  for (const s of selectors) {
    const labels = series.get(s.metric);
    if (!labels) {
      problems.push(`metric ${s.metric || '(none)'}`);
      continue;
    }
    labels.forEach((l) => carried.add(l));
    for (const l of s.labels)
      if (!labels.has(l) && !TARGET_LABELS.includes(l)) problems.push(`label ${l} of ${s.metric}`);
  }
  for (const l of grouping) if (!carried.has(l)) problems.push(`grouping label ${l}`);
  return problems;
}
