module.exports = {
  displayName: 'testing',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/libs/testing',
};
