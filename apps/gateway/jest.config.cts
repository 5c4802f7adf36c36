module.exports = {
  displayName: 'gateway',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/apps/gateway',
};
