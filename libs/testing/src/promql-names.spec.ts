import { exportedSeries, promqlNames, unexportedNames } from './promql-names';

describe('promqlNames', () => {
  it('reads the metrics of selectors with their matchers, and the grouping labels, not functions or keywords', () => {
    expect(
      promqlNames(
        'sum by (app) (rate(hub_http_requests_total{status=~"5.."}[5m])) / on (app) group_left sum by (app) (rate(hub_http_requests_total[5m])) > 0.05',
      ),
    ).toEqual({
      selectors: [
        { metric: 'hub_http_requests_total', labels: ['status'] },
        { metric: 'hub_http_requests_total', labels: [] },
      ],
      grouping: ['app', 'app', 'app'],
    });
    expect(promqlNames('histogram_quantile(0.99, sum by (le) (rate(x_bucket[5m])))')).toEqual({
      selectors: [{ metric: 'x_bucket', labels: [] }],
      grouping: ['le'],
    });
    expect(promqlNames('max without (pod) (a) and on (app, pool) b{state="active", pool!=""}')).toEqual({
      selectors: [
        { metric: 'a', labels: [] },
        { metric: 'b', labels: ['state', 'pool'] },
      ],
      grouping: ['pod', 'app', 'pool'],
    });
    expect(promqlNames('{__name__="a", job="x"} == 0').selectors).toEqual([{ metric: 'a', labels: ['job'] }]);
  });

  it('refuses what is not PromQL', () => {
    expect(() => promqlNames('sum by (app (x)')).toThrow(/not PromQL/);
    expect(() => promqlNames('rate(x[5m]')).toThrow(/not PromQL/);
  });
});

describe('unexportedNames', () => {
  const series = exportedSeries([
    '# HELP a A\n# TYPE a gauge\na{app="w",pool="p",route="/x,{y}"} 1\nb_bucket{le="0.1",app="w"} 3\nc 0\n',
  ]);

  it('reads the exposition: each metric with the labels its samples carry', () => {
    expect(series).toEqual(
      new Map([
        ['a', new Set(['app', 'pool', 'route'])],
        ['b_bucket', new Set(['le', 'app'])],
        ['c', new Set()],
      ]),
    );
  });

  it('names the metric, matcher label and grouping label that nothing exports; target labels are Prometheus own', () => {
    expect(unexportedNames('sum by (app, instance) (a{pool="p"}) + c', series)).toEqual([]);
    expect(unexportedNames('sum by (stage) (missing_total) + a{state="x"} + sum by (nope) (c)', series)).toEqual([
      'metric missing_total',
      'label state of a',
      'grouping label stage',
      'grouping label nope',
    ]);
  });
});
