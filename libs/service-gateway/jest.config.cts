module.exports = {
  displayName: 'service-gateway',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/libs/service-gateway',
};
