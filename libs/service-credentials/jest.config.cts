module.exports = {
  displayName: 'service-credentials',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/libs/service-credentials',
};
