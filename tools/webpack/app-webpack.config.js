const { NxAppWebpackPlugin } = require('@nx/webpack/app-plugin');
const { join } = require('path');

/** The webpack config every app shares: one Node bundle in dist/apps/<app>, with its package.json. */
module.exports = function appWebpackConfig(appDir, app) {
  return {
    output: {
      path: join(__dirname, '../../dist/apps', app),
      clean: true,
      ...(process.env.NODE_ENV !== 'production' && { devtoolModuleFilenameTemplate: '[absolute-resource-path]' }),
    },
    plugins: [
      new NxAppWebpackPlugin({
        target: 'node',
        compiler: 'tsc',
        main: join(appDir, 'src/main.ts'),
        tsConfig: join(appDir, 'tsconfig.app.json'),
        optimization: false,
        outputHashing: 'none',
        // Lists the bundle's runtime dependencies, for the image's `npm install --omit=dev`.
        generatePackageJson: true,
        sourceMap: true,
      }),
    ],
  };
};
