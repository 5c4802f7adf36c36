module.exports = require('../../tools/webpack/app-webpack.config')(__dirname, 'audit-mirror');
